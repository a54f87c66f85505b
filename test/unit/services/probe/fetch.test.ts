// probe-fetch and the probe service with injected resolvers: DNS rebinding refused at connect time, size and
// time caps, redirects re-validated. Every connection goes to a loopback server owned by the test.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createFetcher } from "../../../../server/services/probe/fetch.js";
import { createProbeService } from "../../../../server/services/probe/probe.js";
import { fakeLookup } from "../../../fixtures/storefronts/fake-dns.js";

const publicAddress = "93.184.215.14"; // only ever returned to the pre-connect check, never connected to

describe("probe-fetch", () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  const routes: Record<string, (res: ServerResponse) => void> = {
    "/": (res) => res.end("<html>home</html>"),
    "/huge": (res) => res.end(Buffer.alloc(2 * 1024 * 1024, 97)),
    "/slow": () => {}, // never answers
    "/to-private": (res) => res.writeHead(302, { location: "http://10.0.0.1/" }).end(),
    "/to-creds": (res) => res.writeHead(302, { location: "http://u:p@127.0.0.1/" }).end(),
  };
  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      hits.push(req.url ?? "");
      (routes[req.url ?? ""] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => (hits.length = 0));

  const signal = () => AbortSignal.timeout(10_000);
  const loopbackFetcher = (limits = { perFetchMs: 2000, maxBytes: 1024 * 1024, maxRedirects: 3 }) =>
    createFetcher({ allowLoopback: true }, limits);

  it("refuses a host that resolves public first and to loopback at connect time (DNS rebinding)", async () => {
    const lookup = fakeLookup((_host, call) => (call === 1 ? [publicAddress] : ["127.0.0.1"]));
    const fetchDocument = createFetcher({ allowLoopback: false, lookup });
    const result = await fetchDocument(new URL(`http://rebind.example.com:${port}/`), signal());
    assert.deepEqual([result.ok, !result.ok && result.reason], [false, "forbidden"]);
    assert.deepEqual(hits, []);
  });

  it("answers a rebinding home page 400 invalid_url from the probe service", async () => {
    const lookup = fakeLookup((_host, call) => (call === 1 ? [publicAddress] : ["127.0.0.1"]));
    const probe = createProbeService({ allowPrivate: false, lookup });
    await assert.rejects(probe.probe(`http://rebind.example.com:${port}/`), { code: "invalid_url" });
    assert.deepEqual(hits, []);
  });

  it("aborts a document larger than the size cap", async () => {
    const result = await loopbackFetcher()(new URL(`http://127.0.0.1:${port}/huge`), signal());
    assert.deepEqual([result.ok, !result.ok && result.reason], [false, "too_large"]);
  });

  it("gives up on a server that does not answer in time", async () => {
    const started = Date.now();
    const result = await loopbackFetcher({ perFetchMs: 200, maxBytes: 1024, maxRedirects: 3 })(
      new URL(`http://127.0.0.1:${port}/slow`),
      signal(),
    );
    assert.deepEqual([result.ok, !result.ok && result.reason], [false, "timeout"]);
    assert.ok(Date.now() - started < 2000);
  });

  it("refuses redirects to private addresses and to URLs with credentials", async () => {
    for (const path of ["/to-private", "/to-creds"]) {
      const result = await loopbackFetcher()(new URL(`http://127.0.0.1:${port}${path}`), signal());
      assert.deepEqual([result.ok, !result.ok && result.reason], [false, "forbidden"], path);
    }
  });

  it("fetches an allowed document", async () => {
    const result = await loopbackFetcher()(new URL(`http://127.0.0.1:${port}/`), signal());
    assert.deepEqual(result.ok && [result.status, result.body], [200, "<html>home</html>"]);
  });
});
