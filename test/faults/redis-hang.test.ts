// Fault: Redis (the shared rate-limit store) keeps its connections open but stops answering, as a frozen or
// wedged Redis does. Documented behaviour: a command gives up after REDIS_COMMAND_TIMEOUT_MS and the silent
// connection is dropped, so every request is answered from the per-instance limits within one timeout, and
// /readyz says at once that the store is degraded (200: the instance still serves; see readiness.ts).
// The server runs as a child process (spawnServer: the entry point users start), reaching Redis through a
// loopback proxy that can freeze: it then accepts connections and never writes a byte, and forwards nothing.
import assert from "node:assert/strict";
import net from "node:net";
import { freePort } from "../../mocks/prism.js";
import { estimateRequest, orderRequest } from "../fixtures/requests.js";
import { startPrivateRedis, type PrivateRedis } from "../helpers/private-services.js";
import { adminToken } from "../helpers/server.js";
import { spawnServer, type ServerProcess } from "../helpers/server-process.js";
import { sleep } from "../helpers/wait.js";

/** A TCP proxy to `port` that, once frozen, accepts and never answers (old and new connections alike). */
async function startFreezableProxy(port: number) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("error", () => undefined);
    client.on("close", () => sockets.delete(client));
    if (frozen) return;
    const upstream = net.connect(port, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("error", () => undefined);
    client.on("data", (chunk) => !frozen && upstream.write(chunk));
    upstream.on("data", (chunk) => !frozen && client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${address.port}`,
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe("fault: Redis that accepts and never answers", function () {
  this.timeout(120_000);
  let redis: PrivateRedis;
  let proxy: Awaited<ReturnType<typeof startFreezableProxy>>;
  let server: ServerProcess;
  let url: string;

  const timed = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    const body = await response.text();
    return { status: response.status, ms: performance.now() - started, body };
  };
  const json = (key: string | null, body?: unknown): RequestInit => ({
    method: body ? "POST" : "GET",
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const readiness = async () => {
    const answer = await timed("/readyz");
    return { ...answer, checks: (JSON.parse(answer.body) as { checks?: Record<string, string> }).checks };
  };

  /** The checks once the store answers (ioredis connects and reconnects in the background), or the last seen. */
  const storeReady = async () => {
    let checks: Record<string, string> | undefined;
    for (let i = 0; i < 40 && checks?.rate_limit_store !== "ok"; i++) {
      if (i) await sleep(250);
      checks = (await readiness()).checks;
    }
    return checks;
  };

  before(async () => {
    redis = await startPrivateRedis();
    proxy = await startFreezableProxy(Number(new URL(redis.url).port));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawnServer({ PORT: String(port), REDIS_URL: proxy.url, DISPATCH_ADMIN_TOKEN: adminToken });
    await server.waitFor(/dispatch listening on/);
  });
  after(async () => {
    server?.child.kill();
    await server?.exited;
    proxy?.close();
    await redis?.stop();
  });

  it("answers public, keyed, bad-key and order requests within 2 s, and /readyz says degraded at once", async () => {
    assert.deepEqual(await storeReady(), { database: "ok", rate_limit_store: "ok" });
    const issued = await fetch(`${url}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "redis-hang", environment: "test", scopes: ["order", "orders:read"] }),
    });
    const { key } = (await issued.json()) as { key: string };
    const round = (i: number) => [
      timed("/api/dispatch/v1/estimate", json(null, estimateRequest)),
      timed("/api/dispatch/v1/orders", json(key)),
      timed("/api/dispatch/v1/orders", json("dispatch_test_not_a_real_key")),
      timed("/api/dispatch/v1/order", json(key, { ...orderRequest, reference_id: `redis-hang-${i}` })),
    ];
    const warm = await Promise.all(round(0));
    assert.deepEqual(
      warm.map((r) => r.status),
      [200, 200, 401, 201],
    );

    proxy.freeze();
    // Rounds at a client's pace over several seconds: the first meets the timeout, later ones the reconnections.
    const answers = [];
    for (let i = 1; i <= 4; i++) {
      answers.push(...(await Promise.all(round(i))));
      const ready = await readiness();
      assert.equal(ready.status, 200);
      assert.equal(ready.checks?.rate_limit_store, "degraded");
      assert.ok(ready.ms < 1000, `readyz took ${ready.ms} ms`);
      await sleep(1000);
    }
    const statuses = answers.map((r) => r.status);
    assert.deepEqual(statuses, Array(4).fill([200, 200, 401, 201]).flat());
    const slowest = Math.max(...answers.map((r) => r.ms));
    assert.ok(slowest < 2000, `slowest answer ${slowest.toFixed(0)} ms`);

    proxy.thaw();
    assert.equal((await storeReady())?.rate_limit_store, "ok", "the store is used again once Redis answers");
  });
});
