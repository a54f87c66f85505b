// A WHATWG fetch that sends requests through Hapi's server.inject (shot) instead of a socket: the suite keeps its
// fetch-shaped calls (and the SDK its `fetch` option) while the server needs no port and no TCP round trips.
// The request goes through the real Request class, so bodies (string, bytes, JSON text, URLSearchParams, FormData)
// and their content-type are encoded exactly as the global fetch would encode them.
// Limits: a response is collected whole before it is returned, so a stream that never ends (SSE) cannot go
// through here; those suites keep a listening server.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import type { Server } from "@hapi/hapi";

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);
const maxRedirects = 20; // the fetch standard's limit
// What Node's fetch (undici) adds to every request that does not set them: the server sees the same request, and
// compresses large answers the same way (decoded again below, as fetch does, keeping content-encoding).
const fetchDefaults: Record<string, string> = {
  accept: "*/*",
  "accept-language": "*",
  "sec-fetch-mode": "cors",
  "user-agent": "node",
  "accept-encoding": "gzip, deflate",
};

/** A `fetch` over `server.inject`; absolute URLs keep their authority as the Host header. */
export function injectFetch(server: Server): typeof fetch {
  return async (input, init) => send(server, new Request(input, init), 0);
}

async function send(server: Server, request: Request, redirects: number): Promise<Response> {
  request.signal.throwIfAborted();
  const url = new URL(request.url);
  const headers: Record<string, string> = { ...fetchDefaults };
  request.headers.forEach((value, name) => {
    headers[name] = value; // Headers already joins repeated request headers with ", ", as the wire would
  });
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  const injected = await server.inject({
    method: request.method,
    url: `${url.pathname}${url.search}`,
    authority: url.host,
    headers,
    ...(body ? { payload: Buffer.from(body) } : {}),
  });

  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(injected.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
  }
  const location = responseHeaders.get("location");
  if (request.redirect !== "manual" && redirectStatuses.has(injected.statusCode) && location !== null) {
    if (request.redirect === "error") throw new TypeError(`fetch failed: redirect to ${location}`);
    if (redirects >= maxRedirects) throw new TypeError("fetch failed: too many redirects");
    return send(server, redirected(request, injected.statusCode, new URL(location, url), body), redirects + 1);
  }

  const noBody = nullBodyStatuses.has(injected.statusCode) || request.method === "HEAD";
  const response = new Response(noBody ? null : decoded(injected.rawPayload, responseHeaders.get("content-encoding")), {
    status: injected.statusCode,
    statusText: injected.statusMessage,
    headers: responseHeaders,
  });
  // Response.url and .redirected are read-only getters; the fetch standard sets them on what fetch returns.
  Object.defineProperty(response, "url", { value: request.url });
  Object.defineProperty(response, "redirected", { value: redirects > 0 });
  return response;
}

/** The next request of a followed redirect: 303 (and 301/302 after POST) turn into a body-less GET. */
function redirected(
  request: Request,
  status: number,
  location: URL,
  body: Uint8Array<ArrayBuffer> | undefined,
): Request {
  const toGet =
    status === 303 ? request.method !== "HEAD" : (status === 301 || status === 302) && request.method === "POST";
  const headers = new Headers(request.headers);
  if (toGet)
    for (const name of ["content-type", "content-length", "content-encoding", "content-language"]) headers.delete(name);
  if (location.origin !== new URL(request.url).origin) headers.delete("authorization");
  return new Request(location, {
    method: toGet ? "GET" : request.method,
    headers,
    redirect: request.redirect,
    signal: request.signal,
    ...(toGet || !body ? {} : { body }),
  });
}

/** The body as fetch hands it out: content codings undone, last applied first. */
function decoded(payload: Buffer, contentEncoding: string | null): Uint8Array<ArrayBuffer> {
  if (!contentEncoding || payload.length === 0) return new Uint8Array(payload);
  const body = contentEncoding
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .reverse()
    .reduce((body, coding) => {
      if (coding === "gzip" || coding === "x-gzip") return gunzipSync(body);
      if (coding === "deflate") return body[0] === 0x78 ? inflateSync(body) : inflateRawSync(body);
      if (coding === "br") return brotliDecompressSync(body);
      return body; // identity, or a coding fetch does not decode either
    }, payload);
  return new Uint8Array(body);
}
