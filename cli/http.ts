// The CLI's one-shot requests over node:http(s). Node's fetch (undici) costs a short command more than everything
// else it does: loading it and compiling its parser add several times a bare `node -e 0` of CPU (docs/decisions.md).
// Streams (SSE) still go through the SDK's fetch client, where a long-lived command does not notice that cost.
import type { IncomingMessage, RequestOptions } from "node:http";

export interface HttpRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

/** An answer read whole: what the SDK's error and deprecation helpers read of a fetch Response, and the text. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  ok: boolean;
  url: string;
  headers: { get(name: string): string | null };
  text: string;
}

/** Redirects followed, as fetch does (`redirect: "follow"`, at most 20). */
const maxRedirects = 20;

function headersOf(message: IncomingMessage): HttpAnswer["headers"] {
  return {
    get(name) {
      const value = message.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function sendOnce(request: HttpRequest): Promise<{ message: IncomingMessage; text: string }> {
  const url = new URL(request.url);
  // Only the scheme in use is loaded (https brings TLS), as a CommonJS built-in: a dynamic import() would start the
  // ES module loader, and reading node:http's exports for it loads undici (its lazy WebSocket export).
  const transport = process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http");
  const headers = { ...request.headers };
  if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
  const options: RequestOptions = { method: request.method, headers };
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(url, options, (message) => {
      const chunks: Buffer[] = [];
      message.on("data", (chunk: Buffer) => chunks.push(chunk));
      message.on("end", () => {
        resolve({ message, text: Buffer.concat(chunks).toString("utf8") });
      });
      message.on("error", reject);
    });
    // fetch's shape for a failure to connect: a TypeError whose cause is the socket's error (cli/errors.ts reads it).
    outgoing.on("error", (cause) => {
      reject(new TypeError("fetch failed", { cause }));
    });
    outgoing.end(request.body);
  });
}

/** Sends `request` and reads the whole answer, following redirects as fetch does (303, and 301/302 after a POST,
 * become a GET without a body). */
export async function sendHttp(request: HttpRequest): Promise<HttpAnswer> {
  let current = request;
  for (let hop = 0; ; hop++) {
    const { message, text } = await sendOnce(current);
    const status = message.statusCode ?? 0;
    const location = message.headers.location;
    if (![301, 302, 303, 307, 308].includes(status) || !location || hop >= maxRedirects)
      return {
        status,
        statusText: message.statusMessage ?? "",
        ok: status >= 200 && status < 300,
        url: current.url,
        headers: headersOf(message),
        text,
      };
    const asGet = status === 303 || ((status === 301 || status === 302) && current.method === "POST");
    const { "content-type": _type, "content-length": _length, ...kept } = current.headers;
    current = asGet
      ? { method: "GET", url: new URL(location, current.url).href, headers: kept }
      : { ...current, url: new URL(location, current.url).href };
  }
}
