// listEvents / listOrderEvents answer: a JSON page, or with Accept: text/event-stream the live SSE stream.
import type { Request, ResponseToolkit } from "@hapi/hapi";
import type { Services } from "../services/index.js";
import { eventPage, seqOf, type EventScope } from "../services/events/feed.js";
import { originOf } from "./origin.js";

export async function answerEvents(services: Services, request: Request, h: ResponseToolkit, scope: EventScope) {
  const base = services.config.publicBaseUrl ?? originOf(request);
  const query = request.query as { after?: string; limit: number };
  const resume = (request.headers["last-event-id"] as string | undefined) ?? query.after;
  const accept: unknown = request.headers.accept;
  if (typeof accept !== "string" || !accept.includes("text/event-stream"))
    return eventPage(services.db, seqOf(query.after), scope, query.limit, base);
  const stream = await services.eventStreams.open(scope, resume ? seqOf(resume) : undefined, base);
  request.raw.req.on("close", () => stream.destroy());
  return h
    .response(stream)
    .type("text/event-stream")
    .header("cache-control", "no-cache")
    .header("x-accel-buffering", "no")
    .compressed("identity"); // compression would buffer the stream
}
