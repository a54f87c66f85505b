// Follows one of the API's SSE feeds (listEvents, listOrderEvents, listContractorEvents) and resumes with Last-Event-ID after a drop,
// so a reconnect neither repeats nor skips an event. Parsing is eventsource-parser's, not hand-written.
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { components } from "../../sdk/generated/openapi.js";
import type { CliContext } from "../context.js";
import { apiFailure } from "../api-failure.js";
import { CliError, ExitCode, networkError } from "../errors.js";
import { writeErr } from "../output.js";
import { clientFor } from "../send.js";

/** openapi-fetch's request() for a concrete path (the caller filled in the ids) answered as a byte stream. */
type StreamRequest = (
  method: "GET",
  path: string,
  init: { headers: Record<string, string>; signal: AbortSignal; parseAs: "stream" },
) => Promise<{ data?: ReadableStream<BufferSource>; error?: unknown; response: Response }>;

/** One event as the feed, its SSE stream and webhooks carry it (the contract's DispatchEvent). */
export type LiveEvent = components["schemas"]["DispatchEvent"];
/** One event of the contractor feed (the contract's ContractorEvent). */
export type ContractorLiveEvent = components["schemas"]["ContractorEvent"];
/** Called per event; answering true ends the follow. */
export type OnEvent<E = LiveEvent> = (event: E) => Promise<boolean> | boolean;

/** Consecutive failed reconnects before giving up with exit 3 (about a minute with the back-off below). */
const maxFailures = 12;
const backoffMs = (failures: number) => Math.min(250 * 2 ** failures, 5_000);

interface Cursor {
  last?: string;
  connected: boolean;
  onConnect?: () => void;
}

/** Reads one connection; answers whether `onEvent` asked to stop. Updates the cursor as events arrive. */
async function readOnce<E extends { id: string }>(ctx: CliContext, path: string, cursor: Cursor, onEvent: OnEvent<E>) {
  const headers: Record<string, string> = { accept: "text/event-stream", ...ctx.headers };
  if (cursor.last) headers["last-event-id"] = cursor.last;
  const controller = new AbortController();
  const { data, error, response } = await (clientFor(ctx).request as unknown as StreamRequest)("GET", path, {
    headers,
    signal: controller.signal,
    parseAs: "stream",
  });
  if (!response.ok) throw apiFailure(response, error);
  if (!data) throw new CliError(`GET ${path}: the answer has no body`, ExitCode.unexpected);
  if (!cursor.connected) cursor.onConnect?.();
  cursor.connected = true;
  const reader = data.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (!next.value.data) continue;
      const event = JSON.parse(next.value.data) as E;
      cursor.last = next.value.id ?? event.id;
      if (await onEvent(event)) return true;
    }
    return false;
  } finally {
    // Cancelling the body is what closes the connection: the abort reaches fetch only through the SDK's re-built
    // Request, and with events seconds apart it did not always close the socket, which kept the process alive.
    await reader.cancel().catch(() => undefined);
    controller.abort();
  }
}

/** Follows `path` until `onEvent` answers true; reconnects with back-off, resuming after the last event seen. */
export async function follow<E extends { id: string } = LiveEvent>(
  ctx: CliContext,
  path: string,
  onEvent: OnEvent<E>,
  onConnect?: () => void,
): Promise<void> {
  const cursor: Cursor = { connected: false, onConnect };
  let failures = 0;
  for (;;) {
    try {
      if (await readOnce(ctx, path, cursor, onEvent)) return;
      failures = 0;
    } catch (error) {
      if (error instanceof CliError) throw error; // an HTTP answer (401, 404...) will not change on a retry
      if (!cursor.connected || ++failures > maxFailures) throw networkError(error, ctx.settings["base-url"]);
    }
    writeErr(`dispatch: stream dropped; reconnecting after ${cursor.last ?? "the start"}\n`);
    await new Promise((resolve) => setTimeout(resolve, backoffMs(failures)));
  }
}
