// listEvents / listOrderEvents answer: a JSON page, or with Accept: text/event-stream the live SSE stream.
import Accept from "@hapi/accept";
import type { Request, ResponseToolkit } from "@hapi/hapi";
import { principalOf } from "../plugins/auth.js";
import type { Services } from "../services/index.js";
import { seqOf, type EventScope } from "../services/events/feed.js";
import { baseUrlOf } from "../plugins/origin.js";
import type { ValidQuery } from "../types/contract.js";

/** The stream only when the client prefers it (RFC 9110 §12.5.1): `application/json, text/event-stream` gets JSON. */
function wantsStream(accept: string | undefined): boolean {
  const preferred = Accept.mediaTypes(accept).filter((t) => ["application/json", "text/event-stream"].includes(t));
  return preferred[0] === "text/event-stream";
}

/** Aborted once the response's connection closes: set up before the stream opens, so no exit is missed. */
function closedSignal(request: Request): AbortSignal {
  const controller = new AbortController();
  const res = request.raw.res;
  if (res.closed || res.destroyed) controller.abort();
  else
    res.once("close", () => {
      controller.abort();
    });
  return controller.signal;
}

/** The query of either operation (the two share their parameters). */
export type EventsQuery = ValidQuery<"listEvents"> | ValidQuery<"listOrderEvents">;

export async function answerEvents(
  services: Services,
  request: Request,
  h: ResponseToolkit,
  scope: EventScope,
  query: EventsQuery,
) {
  const base = baseUrlOf(request, services.config.publicBaseUrl);
  const resume = (request.headers["last-event-id"] as string | undefined) ?? query.after;
  if (!wantsStream(request.headers.accept as string | undefined))
    return services.eventFeed.page(seqOf(query.after), scope, query.limit, base);
  const stream = await services.eventStreams.open({
    scope,
    after: resume ? seqOf(resume) : undefined,
    base,
    keyId: principalOf(request).id,
    signal: closedSignal(request),
  });
  return h
    .response(stream)
    .type("text/event-stream")
    .header("cache-control", "no-cache")
    .header("x-accel-buffering", "no")
    .compressed("identity"); // compression would buffer the stream
}
