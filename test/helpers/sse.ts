// An SSE client for the event suites: records each event with its arrival time and each comment, parsed by
// eventsource-parser (the CLI's parser), and can be dropped at any moment like a network cut.
import { createParser } from "eventsource-parser";
import type { components } from "../../sdk/generated/openapi.js";

/** One event as the server sent it (the contract's DispatchEvent) and when it arrived. */
export type ReceivedEvent = components["schemas"]["DispatchEvent"] & { at: number };

export interface SseClient {
  status: number;
  headers: Headers;
  events: ReceivedEvent[];
  /** Each event's `data:` as sent, byte for byte (to compare with a feed item or a webhook body). */
  data: string[];
  comments: string[];
  /** Resolves when the server ends the stream (or the client closes it). */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` with Accept: text/event-stream; non-2xx answers resolve too (status and headers, no events). */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  const events: ReceivedEvent[] = [];
  const data: string[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (message) => {
      data.push(message.data);
      events.push({ ...(JSON.parse(message.data) as ReceivedEvent), at: Date.now() });
    },
    onComment: (comment) => comments.push(comment.trim()),
  });
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) parser.feed(next.value);
    } catch {
      // aborted by close(), or the server cut the connection
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    data,
    comments,
    ended,
    close: () => {
      controller.abort();
    },
  };
}
