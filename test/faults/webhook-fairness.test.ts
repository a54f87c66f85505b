// Fault: one tenant's callbacks fail (500 or no answer at all) and must only slow that tenant. Deliveries are
// kept per lane (tenant + endpoint), so neither a hung receiver on another host nor a failure storm on the very
// host another tenant's healthy receiver lives on delays that other tenant's webhooks.
// The 60 s storm runs once, on Postgres when the run has one (PGlite otherwise), where it ran on both: what keeps
// lanes apart is the claim's SQL (outbox.ts claimDue) and the worker's lane bookkeeping, the same on both databases,
// and the hung-receiver test below still runs on each. The two storms measured alike, within run-to-run noise
// (victim p95 1025 / 1182 ms and 1124 / 1087 ms on PGlite / Postgres in two runs, 52 to 54 webhooks each, the
// attacker's circuit open after 9 attempts every time): the worker's 1 s poll, not the database, sets the victim's
// delay. Postgres is the database of the multi-tenant deployments whose receivers share hosts, and its connection
// pool lets the attacker's writes and the worker's claims run at once. The file alone: 141.5 s before, 83.1 s after.
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import { freePort } from "../../mocks/prism.js";
import { postOrder, startReceiver } from "../fixtures/orders.js";
import { orderRequest } from "../fixtures/requests.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";

/** Lets a request's body arrive, then answers it (or never does when `answer` is null). */
function drainThen(request: import("node:http").IncomingMessage, answer: () => void): void {
  request.resume();
  request.on("end", answer);
}

/**
 * One receiver host shared by two tenants: `/victim/<ref>` answers 200 and records when `<ref>` first arrived;
 * `/attacker/<n>` answers 500, except every third path, which never answers (a hung receiver).
 */
async function startSharedHost(port: number) {
  const victim = new Map<string, number>();
  let attackerAttempts = 0;
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const [, who, ref] = (request.url ?? "").split("/");
    if (who === "victim") {
      drainThen(request, () => {
        if (!victim.has(ref)) victim.set(ref, Date.now());
        response.writeHead(200).end();
      });
      return;
    }
    attackerAttempts++;
    if (Number(ref) % 3 === 0) hanging.add(response.on("close", () => hanging.delete(response)));
    else drainThen(request, () => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    victim,
    attackerAttempts: () => attackerAttempts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A TCP listener that accepts every connection and never writes a byte (a hung receiver on its own host). */
async function startBlackhole(port: number): Promise<{ stop(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

// The claim that keeps lanes apart is SQL: it runs on PGlite and, when the tests have one, on Postgres.
const stormOn = databases().at(-1)!.name;
for (const db of databases())
  describe(`fault: webhook fairness (${db.name})`, function () {
    this.timeout(180_000);
    let t: TestServer;
    before(async () => {
      // The worker's default poll (1 s): a victim's delivery is measured at the interval users run. A short
      // back-off and timeout make the attacker as loud as it can be: many retries due, hung attempts held 4 s.
      t = await startTestServer(db, {
        WEBHOOK_ALLOW_PRIVATE: "true",
        WEBHOOK_TIMEOUT_MS: "4000",
        WEBHOOK_BACKOFF_MS: "500",
        RATE_LIMIT_POINTS: "100000",
      });
    });
    after(() => t?.stop());

    it("delivers account B's first webhook in under 5 s while account A's 30 callbacks hang", async () => {
      const hungPort = await freePort();
      const hung = await startBlackhole(hungPort);
      const goodPort = await freePort();
      const receiver = await startReceiver(goodPort);
      try {
        const a = (await t.issueKey({ account: "tenant-a" })).key;
        const b = (await t.issueKey({ account: "tenant-b" })).key;
        for (let i = 0; i < 30; i++) {
          // A different path per order: fairness must not be side-stepped by varying the URL on one host.
          const callback_url = `http://127.0.0.1:${hungPort}/hook/${i}`;
          const res = await postOrder(
            t.url,
            { "x-api-key": a },
            { ...orderRequest, reference_id: `a-${i}`, callback_url },
          );
          assert.ok(res.status < 300, `order answered ${res.status}`);
        }
        const started = Date.now();
        const callback_url = `http://127.0.0.1:${goodPort}/hooks`;
        const res = await postOrder(t.url, { "x-api-key": b }, { ...orderRequest, reference_id: "b-1", callback_url });
        assert.ok(res.status < 300, `order answered ${res.status}`);
        await until(() => receiver.deliveries.length >= 1, { timeoutMs: 30_000 });
        const delayMs = Date.now() - started;
        console.error(`      account B's first webhook arrived after ${delayMs} ms`);
        assert.ok(delayMs < 5_000, `B's webhook took ${delayMs} ms`);
      } finally {
        await receiver.stop();
        await hung.stop();
      }
    });

    if (db.name === stormOn)
      it("keeps another tenant's p95 delivery <= 2 s on the same host through a 60 s storm of failing callbacks", async () => {
        const port = await freePort();
        const host = await startSharedHost(port);
        try {
          const attacker = (await t.issueKey({ account: "storm-attacker" })).key; // a test key, as in the report
          const victim = (await t.issueKey({ account: "storm-victim", environment: "live" })).key;
          const sentAt = new Map<string, number>();
          const stormEnds = Date.now() + 60_000;
          const order = async (key: string, ref: string, path: string) => {
            const callback_url = `http://127.0.0.1:${port}/${path}`;
            const res = await postOrder(
              t.url,
              { "x-api-key": key },
              { ...orderRequest, reference_id: ref, callback_url },
            );
            assert.ok(res.status < 300, `order ${ref} answered ${res.status}`);
          };
          let attackerOrders = 0;
          const attack = async () => {
            for (; Date.now() < stormEnds; attackerOrders++) {
              await order(attacker, `storm-a-${attackerOrders}`, `attacker/${attackerOrders}`);
              await sleep(200); // five failing orders a second, each retried on its back-off
            }
          };
          const live = async () => {
            await sleep(5_000); // the storm is under way (circuits tripped, retries due) before the victim's first
            for (let n = 0; Date.now() < stormEnds; n++) {
              const ref = `v${n}`;
              sentAt.set(ref, Date.now());
              await order(victim, `storm-v-${n}`, `victim/${ref}`);
              await sleep(1_000);
            }
          };
          await Promise.all([attack(), live()]);
          await until(() => host.victim.size >= sentAt.size, { timeoutMs: 30_000 }).catch(() => undefined);
          const delays = [...sentAt].map(([ref, at]) => (host.victim.get(ref) ?? Infinity) - at).sort((x, y) => x - y);
          const [p50, p95] = [percentile(delays, 0.5), percentile(delays, 0.95)];
          console.error(
            `      victim: ${delays.length} webhooks, p50 ${p50} ms, p95 ${p95} ms, max ${delays.at(-1)} ms; ` +
              `attacker: ${attackerOrders} orders, ${host.attackerAttempts()} attempts`,
          );
          assert.ok(p95 <= 2_000, `victim p95 ${p95} ms`);
          // The storm was one: orders kept coming all along (fewer on a loaded machine) and the receiver failed them.
          assert.ok(delays.length >= 30, `only ${delays.length} victim orders`);
          assert.ok(attackerOrders >= 100, `only ${attackerOrders} attacker orders`);
          assert.ok(host.attackerAttempts() >= 3, "the attacker's circuit never had the failures to open");
        } finally {
          await host.stop();
        }
      });
  });
