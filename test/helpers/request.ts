// Raw JSON calls for the suites: the status, headers and exact body stay visible (no SDK in between). A target is a
// server URL (sent with the global fetch) or a TestServer (sent with its fetch: a socket, or server.inject).
import type { ServerTarget } from "./server.js";

export type Target = string | ServerTarget;

/** The base URL and the fetch to send with. */
export const sender = (target: Target): { url: string; send: typeof fetch } =>
  typeof target === "string" ? { url: target, send: fetch } : { url: target.url, send: target.fetch };

export interface JsonRequest {
  headers?: Record<string, string>;
  /** Sent as JSON (with content-type: application/json); no body and no content-type when undefined. */
  body?: unknown;
}

/** `method` `path` on the target, with `headers` and `body` as JSON. */
export function jsonRequest(
  target: Target,
  method: string,
  path: string,
  { headers = {}, body }: JsonRequest = {},
): Promise<Response> {
  const { url, send } = sender(target);
  return send(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
