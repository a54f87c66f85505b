// SIGTERM under load drains: the listener closes at once, every request the server had accepted gets its whole
// response, later connections are refused (not reset), an open SSE stream gets a last comment and ends, and the
// process exits 0 within the grace period.
import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { freePort } from "../../mocks/prism.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { spawnServer, type ServerProcess } from "../helpers/server-process.js";
import { openSse } from "../helpers/sse.js";

const adminToken = "drain-admin-token-0123456789";
const graceMs = 20_000;
const inFlight = 200;

type Outcome =
  { status: number; connection: string | undefined; body: string; at: number } | { error: string; at: number };

/** One request on `agent`; resolves with the whole response (its body read to the end) or the error's code. */
function send(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; agent: Agent | false },
) {
  const req = httpRequest({
    host: "127.0.0.1",
    port,
    path,
    method: init.method ?? "GET",
    agent: init.agent,
    headers: init.headers,
  });
  const outcome = new Promise<Outcome>((resolve) => {
    const failed = (error: NodeJS.ErrnoException) => {
      resolve({ error: error.code ?? error.message, at: Date.now() });
    };
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode!, connection: res.headers.connection, body, at: Date.now() });
      });
      res.on("error", failed);
    });
    req.on("error", failed);
  });
  return { req, outcome };
}

const json = (key: string) => ({ "content-type": "application/json", "x-api-key": key });

/** A POST whose body waits for the server's 100 Continue (so the server has it) and then for `release`. */
function heldPost(port: number, path: string, body: unknown, key: string, agent: Agent) {
  const text = JSON.stringify(body);
  const headers = { ...json(key), expect: "100-continue", "content-length": String(Buffer.byteLength(text)) };
  const { req, outcome } = send(port, path, { method: "POST", headers, agent });
  const continued = new Promise<void>((resolve) => req.once("continue", resolve));
  req.flushHeaders();
  return { continued, outcome, release: () => req.end(text) };
}

async function issueKey(url: string): Promise<string> {
  const response = await fetch(`${url}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ account: "drain", environment: "test" }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { key: string }).key;
}

describe("SIGTERM drain", function () {
  this.timeout(120_000);
  let server: ServerProcess | null = null;
  afterEach(() => {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  });

  it("answers every accepted request, refuses later connections, ends SSE streams and exits 0", async () => {
    const port = await freePort();
    server = spawnServer({
      PORT: String(port),
      DISPATCH_ADMIN_TOKEN: adminToken,
      RATE_LIMIT_POINTS: "100000",
      SANDBOX_STEP_MS: "0",
      SHUTDOWN_GRACE_MS: String(graceMs),
    });
    await server.waitFor(/dispatch listening/);
    const url = `http://127.0.0.1:${port}`;
    const key = await issueKey(url);
    const order = await fetch(`${url}/api/dispatch/v1/order`, {
      method: "POST",
      headers: json(key),
      body: JSON.stringify({ ...orderRequest, reference_id: "drain-sse" }),
    });
    assert.equal(order.status, 201);
    const orderId = ((await order.json()) as { order: { id: string } }).order.id;
    const sse = await openSse(`${url}/api/dispatch/v1/orders/${orderId}/events`, { "x-api-key": key });
    assert.equal(sse.status, 200);

    // Idle kept-alive connections must not hold the drain.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 10 });
    await Promise.all(Array.from({ length: 10 }, () => send(port, "/healthz", { agent: idleAgent }).outcome));

    // 200 orders and quotes, each on its own connection, all in the server's hands (it answered 100 Continue)
    // with their bodies still to come when the signal arrives.
    const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
    const held = Array.from({ length: inFlight }, (_, i) =>
      i % 2
        ? heldPost(port, "/api/dispatch/v1/quote", quoteRequest, key, agent)
        : heldPost(port, "/api/dispatch/v1/order", { ...orderRequest, reference_id: `drain-${i}` }, key, agent),
    );
    await Promise.all(held.map((h) => h.continued));
    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    await server.waitFor(/listener closed/, 5000);

    const late = await Promise.all(Array.from({ length: 20 }, () => send(port, "/healthz", { agent: false }).outcome));
    for (const h of held) h.release();
    const outcomes = await Promise.all(held.map((h) => h.outcome));
    const exitCode = await server.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    await sse.ended;
    agent.destroy();
    idleAgent.destroy();

    const failures = outcomes.filter((o) => "error" in o).map((o) => ("error" in o ? o.error : ""));
    console.log(`      ${inFlight} requests held over SIGTERM; exit ${exitedAfterMs} ms after it`);
    assert.deepEqual(failures, [], "requests in flight at SIGTERM were cut");
    // 202 is an order's success too: with capacity, a burst of 100 orders in one city fills the pool's seats
    // (how many depends on the hour: the horizon's local days), and the rest wait for the dispatcher.
    assert.deepEqual(
      outcomes.map((o) => ("status" in o ? o.status : 0)).filter((s) => ![200, 201, 202].includes(s)),
      [],
      "every request in flight got its success response",
    );
    assert.deepEqual(
      [...new Set(outcomes.map((o) => ("status" in o ? o.connection : "")))],
      ["close"],
      "responses during the drain close their connection",
    );
    assert.deepEqual(
      late.map((o) => ("error" in o ? o.error : `HTTP ${o.status}`)),
      Array(20).fill("ECONNREFUSED"),
    );
    assert.ok(
      sse.comments.some((c) => c.includes("server stopping")),
      `SSE comments: ${sse.comments.join(" | ")}`,
    );
    assert.equal(exitCode, 0, server.output().slice(-2000));
    assert.ok(exitedAfterMs < graceMs, `exited ${exitedAfterMs} ms after SIGTERM`);
  });
});
