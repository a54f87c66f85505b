// Follows one of the API's SSE feeds (listEvents, listOrderEvents) and resumes with Last-Event-ID after a drop,
// so a reconnect neither repeats nor skips an event. Parsing is eventsource-parser's, not hand-written.
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { CliContext } from "../context.js";
import { CliError, exitCodeForStatus, networkError } from "../errors.js";
import { writeErr } from "../output.js";

export interface LiveEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
/** Called per event; answering true ends the follow. */
export type OnEvent = (event: LiveEvent) => Promise<boolean> | boolean;

/** Consecutive failed reconnects before giving up with exit 3 (about a minute with the back-off below). */
const maxFailures = 12;
const backoffMs = (failures: number) => Math.min(250 * 2 ** failures, 5_000);

function authHeaders(ctx: CliContext): Record<string, string> {
  const { settings } = ctx;
  const headers: Record<string, string> = { ...ctx.headers, accept: "text/event-stream" };
  if (settings["api-key"]) headers["x-api-key"] = settings["api-key"];
  if (settings.token) headers.authorization = `Bearer ${settings.token}`;
  headers["user-agent"] = `dispatch-cli/${ctx.version} node/${process.versions.node}`;
  return headers;
}

async function failure(response: Response, path: string): Promise<CliError> {
  const body = await response.text().catch(() => "");
  const detail = /"detail"\s*:\s*"([^"]*)"/.exec(body)?.[1] ?? `HTTP ${response.status}`;
  return new CliError(`GET ${path}: ${detail}`, exitCodeForStatus(response.status));
}

interface Cursor {
  last?: string;
  connected: boolean;
  onConnect?: () => void;
}

/** Reads one connection; answers whether `onEvent` asked to stop. Updates the cursor as events arrive. */
async function readOnce(ctx: CliContext, path: string, cursor: Cursor, onEvent: OnEvent) {
  const headers = authHeaders(ctx);
  if (cursor.last) headers["last-event-id"] = cursor.last;
  const controller = new AbortController();
  const response = await fetch(ctx.settings["base-url"] + path, { headers, signal: controller.signal });
  if (!response.ok || !response.body) throw await failure(response, path);
  if (!cursor.connected) cursor.onConnect?.();
  cursor.connected = true;
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (!next.value.data) continue;
      const event = JSON.parse(next.value.data) as LiveEvent;
      cursor.last = next.value.id ?? event.id;
      if (await onEvent(event)) return true;
    }
    return false;
  } finally {
    controller.abort();
  }
}

/** Follows `path` until `onEvent` answers true; reconnects with back-off, resuming after the last event seen. */
export async function follow(ctx: CliContext, path: string, onEvent: OnEvent, onConnect?: () => void): Promise<void> {
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
