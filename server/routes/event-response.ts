// The answer of an event feed (listEvents, listOrderEvents, listContractorEvents): a JSON page, or with
// Accept: text/event-stream the live SSE stream, resumed from Last-Event-ID or `after`.
import Accept from "@hapi/accept";
import type { PassThrough } from "node:stream";
import type { Request, ResponseToolkit } from "@hapi/hapi";
import { principalOf } from "../plugins/auth.js";
import type { Services } from "../services/index.js";
import { seqOf, type EventScope } from "../services/events/feed.js";
import { contractorSeqOf, type ContractorScope } from "../services/events/contractor-feed.js";
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

/** What a stream is opened with, besides its feed and resume point. */
interface StreamAt {
  base: string;
  keyId: string;
  signal: AbortSignal;
}
/** A feed's two answers: its page, or its stream from the resume point (an event id, or none). */
interface FeedAnswers {
  after: string | undefined;
  page(base: string): Promise<unknown>;
  open(resume: string | undefined, at: StreamAt): Promise<PassThrough>;
}

async function answerFeed(services: Services, request: Request, h: ResponseToolkit, feed: FeedAnswers) {
  const base = baseUrlOf(request, services.config.publicBaseUrl);
  if (!wantsStream(request.headers.accept as string | undefined)) return feed.page(base);
  const resume = (request.headers["last-event-id"] as string | undefined) ?? feed.after;
  const stream = await feed.open(resume, { base, keyId: principalOf(request).id, signal: closedSignal(request) });
  return h
    .response(stream)
    .type("text/event-stream")
    .header("cache-control", "no-cache")
    .header("x-accel-buffering", "no")
    .compressed("identity"); // compression would buffer the stream
}

/** The query of either operation (the two share their parameters). */
export type EventsQuery = ValidQuery<"listEvents"> | ValidQuery<"listOrderEvents">;

export function answerEvents(
  services: Services,
  request: Request,
  h: ResponseToolkit,
  scope: EventScope,
  query: EventsQuery,
) {
  const streams = services.eventStreams;
  return answerFeed(services, request, h, {
    after: query.after,
    page: (base) => services.eventFeed.page(seqOf(query.after), scope, query.limit, base),
    open: (resume, at) =>
      streams.open({ feed: streams.scoped(scope), after: resume ? seqOf(resume) : undefined, ...at }),
  });
}

export function answerContractorEvents(
  services: Services,
  request: Request,
  h: ResponseToolkit,
  scope: ContractorScope,
  query: ValidQuery<"listContractorEvents">,
) {
  const streams = services.contractorStreams;
  return answerFeed(services, request, h, {
    after: query.after,
    page: () => services.contractorEvents.page(contractorSeqOf(query.after), scope, query.limit),
    open: (resume, at) =>
      streams.open({ feed: streams.scoped(scope), after: resume ? contractorSeqOf(resume) : undefined, ...at }),
  });
}
