// injectFetch answers as the global fetch does against the same server listening on a port: every case is sent both
// ways and the status, headers and body bytes must agree (only the per-connection headers differ).
import assert from "node:assert/strict";
import Hapi from "@hapi/hapi";
import { injectFetch } from "../../helpers/inject-fetch.js";

const bytes = Buffer.from([0, 1, 2, 253, 254, 255, 0x7b]);
const perConnection = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

function buildServer(): Hapi.Server {
  const server = Hapi.server({ host: "127.0.0.1", port: 0 });
  server.route([
    {
      method: "*",
      path: "/echo",
      handler: (request, h) =>
        h.response({
          method: request.method,
          path: request.path,
          query: request.query,
          host: request.info.host,
          accept: request.headers.accept ?? null,
          custom: request.headers["x-multi"] ?? null,
          contentType: request.headers["content-type"] ?? null,
          body: Buffer.isBuffer(request.payload) ? request.payload.toString("base64") : null,
        }),
      options: { payload: { parse: false, output: "data" } },
    },
    {
      method: "GET",
      path: "/cookies",
      handler: (_request, h) =>
        h
          .response("ok")
          .header("set-cookie", "a=1; Path=/")
          .header("set-cookie", "b=2; HttpOnly", { append: true })
          .header("link", '</page/2>; rel="next"')
          .header("link", '</page/9>; rel="last"', { append: true, separator: ", " }),
    },
    { method: "GET", path: "/large", handler: () => ({ items: Array.from({ length: 500 }, (_, i) => `item ${i}`) }) },
    { method: "GET", path: "/bytes", handler: (_request, h) => h.response(bytes).type("application/octet-stream") },
    { method: "DELETE", path: "/gone", handler: (_request, h) => h.response().code(204) },
    {
      method: "POST",
      path: "/problem",
      handler: (_request, h) =>
        h
          .response({ type: "about:blank", title: "Conflict", status: 409, detail: "Already there." })
          .code(409)
          .type("application/problem+json"),
    },
    { method: "GET", path: "/moved", handler: (_request, h) => h.redirect("/echo?from=moved").code(302) },
    { method: "POST", path: "/see-other", handler: (_request, h) => h.redirect("/echo").code(303) },
  ]);
  return server;
}

interface Seen {
  status: number;
  statusText: string;
  headers: [string, string][];
  setCookie: string[];
  body: string;
  redirected: boolean;
  url: string;
}

async function see(response: Response, origin: string): Promise<Seen> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!perConnection.has(name)) headers.push([name, value]);
  });
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    setCookie: response.headers.getSetCookie(),
    body: Buffer.from(await response.arrayBuffer()).toString("base64"),
    redirected: response.redirected,
    url: response.url.replace(origin, "<origin>"),
  };
}

describe("injectFetch", () => {
  const listening = buildServer();
  const injected = buildServer();
  let origin: string;
  let sendInjected: typeof fetch;

  before(async () => {
    await listening.start();
    await injected.initialize();
    origin = listening.info.uri;
    sendInjected = injectFetch(injected);
  });
  after(async () => {
    await listening.stop();
    await injected.stop();
  });

  /** Sends one request both ways and returns the (equal) view of the answers. */
  async function both(path: string, init?: RequestInit): Promise<Seen> {
    const real = await see(await fetch(`${origin}${path}`, init), origin);
    // The injected server's Host is its own URL's: the real one's, so that echoed hosts compare equal.
    const viaInject = await see(await sendInjected(`${origin}${path}`, init), origin);
    assert.deepEqual(viaInject, real);
    return real;
  }

  it("sends method, path, query, Host and repeated request headers", async () => {
    const headers = new Headers({ accept: "application/json" });
    headers.append("x-multi", "one");
    headers.append("x-multi", "two");
    const seen = await both("/echo?a=1&a=2&b=%C3%A9", { method: "PUT", headers });
    const body = JSON.parse(Buffer.from(seen.body, "base64").toString());
    assert.deepEqual(body.query, { a: ["1", "2"], b: "é" });
    assert.equal(body.method, "put");
    assert.equal(body.custom, "one, two");
    assert.equal(body.host, new URL(origin).host);
  });

  it("sends string, JSON, byte and form bodies with the content-type fetch gives them", async () => {
    const json = await both("/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: 1 }),
    });
    assert.equal(
      Buffer.from(JSON.parse(Buffer.from(json.body, "base64").toString()).body, "base64").toString(),
      '{"a":1}',
    );
    const raw = await both("/echo", { method: "POST", body: bytes });
    assert.equal(JSON.parse(Buffer.from(raw.body, "base64").toString()).body, bytes.toString("base64"));
    const form = await both("/echo", { method: "POST", body: new URLSearchParams({ grant_type: "x y" }) });
    const formBody = JSON.parse(Buffer.from(form.body, "base64").toString());
    assert.equal(formBody.contentType, "application/x-www-form-urlencoded;charset=UTF-8");
    assert.equal(Buffer.from(formBody.body, "base64").toString(), "grant_type=x+y");
    await both("/echo", { method: "POST", body: "plain text" });
  });

  it("returns every set-cookie and link value", async () => {
    const seen = await both("/cookies");
    assert.deepEqual(seen.setCookie, ["a=1; Path=/", "b=2; HttpOnly"]);
    assert.equal(seen.headers.find(([name]) => name === "link")?.[1], '</page/2>; rel="next", </page/9>; rel="last"');
  });

  it("returns body bytes unchanged", async () => {
    assert.equal((await both("/bytes")).body, bytes.toString("base64"));
    assert.equal((await both("/bytes", { method: "HEAD" })).body, "");
  });

  it("decodes a compressed answer as fetch does, keeping content-encoding", async () => {
    const seen = await both("/large");
    assert.ok(seen.headers.some(([name, value]) => name === "content-encoding" && value === "gzip"));
    assert.equal(JSON.parse(Buffer.from(seen.body, "base64").toString()).items.length, 500);
  });

  it("answers 204 with a null body", async () => {
    const response = await sendInjected(`${origin}/gone`, { method: "DELETE" });
    assert.equal(response.status, 204);
    assert.equal(response.body, null);
    await both("/gone", { method: "DELETE" });
  });

  it("returns problem+json with its status and type", async () => {
    const seen = await both("/problem", { method: "POST" });
    assert.equal(seen.status, 409);
    const response = await sendInjected(`${origin}/problem`, { method: "POST" });
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(await response.json(), {
      type: "about:blank",
      title: "Conflict",
      status: 409,
      detail: "Already there.",
    });
  });

  it("follows redirects as fetch does, and leaves them alone with redirect: manual", async () => {
    const followed = await both("/moved");
    assert.equal(followed.redirected, true);
    assert.equal(followed.url, "<origin>/echo?from=moved");
    const seeOther = await both("/see-other", { method: "POST", body: "x" });
    assert.equal(JSON.parse(Buffer.from(seeOther.body, "base64").toString()).method, "get");
    const manual = await both("/moved", { redirect: "manual" });
    assert.equal(manual.status, 302);
  });

  it("rejects an aborted request before sending it", async () => {
    await assert.rejects(sendInjected(`${origin}/echo`, { signal: AbortSignal.abort() }), { name: "AbortError" });
  });
});
