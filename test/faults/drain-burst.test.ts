// Fault: SIGTERM in the middle of traffic, on the built server users run. Every request whose bytes reached the
// server before the signal is answered: a burst of 200 concurrent orders on fresh connections, and 32 kept-alive
// connections sending back to back, each closed only by `Connection: close` on its last answer. No resets.
import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { orderRequest } from "../fixtures/requests.js";
import { adminToken } from "../helpers/server.js";
import { spawnServer, type ServerProcess } from "../helpers/server-process.js";

type Outcome = { status: number; connection: string | undefined } | { error: string };

/** One request; resolves with the whole answer (its body read to the end) or the socket error's code. */
function send(port: number, path: string, init: { method?: string; body?: string; key: string; agent: Agent | false }) {
  return new Promise<Outcome>((resolve) => {
    const failed = (error: NodeJS.ErrnoException) => {
      resolve({ error: error.code ?? error.message });
    };
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path,
      method: init.method ?? "GET",
      agent: init.agent,
      headers: { "content-type": "application/json", "x-api-key": init.key },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => {
        resolve({ status: res.statusCode!, connection: res.headers.connection });
      });
      res.on("error", failed);
    });
    req.on("error", failed);
    req.end(init.body);
  });
}

async function startBuilt(): Promise<{ server: ServerProcess; port: number; key: string }> {
  // The helper's default is the build (`npm test` builds before mocha; a stale one stops the test).
  const server = spawnServer({
    DISPATCH_ADMIN_TOKEN: adminToken,
    RATE_LIMIT_POINTS: "1000000",
    SHUTDOWN_GRACE_MS: "20000",
  });
  const line = await server.waitFor(/dispatch listening on http:\/\/[\d.]+:\d+/);
  const base = line.replace("dispatch listening on ", "");
  const response = await fetch(`${base}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ account: "drain-burst", environment: "live" }),
  });
  assert.equal(response.status, 201);
  const { key } = (await response.json()) as { key: string };
  return { server, port: Number(new URL(base).port), key };
}

const errorsOf = (outcomes: Outcome[]) =>
  outcomes
    .flatMap((o) => ("error" in o ? [o.error] : []))
    .reduce<Record<string, number>>((counts, code) => {
      counts[code] = (counts[code] ?? 0) + 1;
      return counts;
    }, {});

describe("fault: SIGTERM under load (built server)", function () {
  this.timeout(180_000);
  let server: ServerProcess | null = null;
  afterEach(() => {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  });

  it("answers all 200 orders of a burst signalled 300 ms after it started", async () => {
    const started = await startBuilt();
    server = started.server;
    const { port, key } = started;
    const burstStart = Date.now();
    const burst = Array.from({ length: 200 }, (_, n) =>
      send(port, "/api/dispatch/v1/order", {
        method: "POST",
        key,
        agent: false, // a connection each, as 200 separate clients
        body: JSON.stringify({ ...orderRequest, reference_id: `burst-${n}` }),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300 - (Date.now() - burstStart)));
    server.child.kill("SIGTERM");
    const outcomes = await Promise.all(burst);
    const answered = outcomes.filter((o) => "status" in o);
    console.error(`      burst: ${answered.length} of 200 answered, errors ${JSON.stringify(errorsOf(outcomes))}`);
    assert.deepEqual(errorsOf(outcomes), {});
    assert.ok(
      answered.every((o) => o.status < 300),
      JSON.stringify(answered.filter((o) => o.status >= 300)),
    );
    assert.equal(await server.exited, 0, server.output().slice(-2000));
  });

  it("closes 32 busy kept-alive connections only through Connection: close on their last answer", async () => {
    const started = await startBuilt();
    server = started.server;
    const { port, key } = started;
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const outcomes: Outcome[] = [];
    // Each client sends back to back on its connection until an answer says the connection closes.
    const client = async () => {
      for (let n = 0; n < 2_000; n++) {
        const outcome = await send(port, "/api/dispatch/v1/orders?limit=1", { key, agent });
        outcomes.push(outcome);
        if ("error" in outcome || outcome.connection === "close") return;
      }
    };
    const clients = Array.from({ length: 32 }, client);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.child.kill("SIGTERM");
    await Promise.all(clients);
    agent.destroy();
    const closes = outcomes.filter((o) => "status" in o && o.connection === "close").length;
    console.error(
      `      kept-alive: ${outcomes.length} requests, ${closes} Connection: close, errors ${JSON.stringify(errorsOf(outcomes))}`,
    );
    assert.deepEqual(errorsOf(outcomes), {});
    assert.equal(closes, 32);
    assert.ok(outcomes.every((o) => "status" in o && o.status === 200));
    assert.equal(await server.exited, 0, server.output().slice(-2000));
  });
});
