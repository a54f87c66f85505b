// `dispatch orders watch` on the plain path users take: the built server as its own process, sandbox steps seconds
// apart (as the default 5 s step and live operators are), no proxy, the bundled CLI. It must exit 0 right after
// `completed` in table and JSON output alike, however long the stream stayed quiet between steps. The two watches
// (one order each, on one server) run at once: each walk takes its 5 s steps either way, and the file then waits
// for one walk instead of two (the file alone: 53.7 s before, 32.4 s after).
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { adminToken } from "../helpers/server.js";
import { spawnServer, type ServerProcess } from "../helpers/server-process.js";
import { runBin } from "./run-cli.js";
import { weekdayMorning } from "../helpers/business-time.js";

const stepMs = 5_000; // SANDBOX_STEP_MS default

async function issueKey(base: string, account: string): Promise<string> {
  const response = await fetch(`${base}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ account, environment: "test" }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { key: string }).key;
}

const formats = ["table", "json"] as const;

/** One watch of a new order of its own: what the bin printed, and when it started and exited. */
async function watchOrder(base: string, format: (typeof formats)[number]) {
  const key = await issueKey(base, `watch-steps-${format}`);
  const body = { ...orderRequest, reference_id: `watch-steps-${format}` };
  const created = (await (await postOrder(base, { "x-api-key": key }, body)).json()) as { order: { id: string } };
  const started = Date.now();
  // Bounded: a watch that never exits is killed after the walk's four steps plus a generous margin.
  // The bin: what is measured is how soon the process itself exits.
  const watched = await runBin(["orders", "watch", created.order.id, "--output", format], {
    env: { DISPATCH_API_KEY: key, DISPATCH_BASE_URL: base },
    timeoutMs: 4 * stepMs + 20_000,
  });
  return { key, id: created.order.id, watched, started, exitedAt: Date.now() };
}

describe("orders watch with steps seconds apart (built server and CLI)", function () {
  this.timeout(180_000);
  let server: ServerProcess;
  let base: string;
  const watches = new Map<string, ReturnType<typeof watchOrder>>();
  before(async () => {
    // The build users run (`npm test` builds the server and the CLI before mocha; a stale server stops the test).
    // On a weekday morning: the window under way is reachable, so the walk takes its steps without waiting for one.
    server = spawnServer({
      DISPATCH_ADMIN_TOKEN: adminToken,
      SANDBOX_STEP_MS: String(stepMs),
      DISPATCH_TEST_NOW: weekdayMorning,
    });
    const line = await server.waitFor(/dispatch listening on http:\/\/[\d.]+:\d+/);
    base = line.replace("dispatch listening on ", "");
    for (const format of formats) {
      const watch = watchOrder(base, format);
      watch.catch(() => undefined); // awaited (and reported) by its own test below
      watches.set(format, watch);
    }
  });
  after(async () => {
    await Promise.allSettled(watches.values());
    server?.child.kill("SIGTERM");
    await server?.exited;
  });

  for (const format of formats)
    it(`exits 0 right after completed (--output ${format})`, async () => {
      const { key, id, watched, started, exitedAt } = await watches.get(format)!;
      assert.equal(watched.code, 0, `exit ${watched.code}: ${watched.stderr}`);
      const lines = watched.stdout.trim().split("\n");
      // created, assigned (offered), dispatched, assigned (the sandbox's contractor accepted), en_route, eta_updated
      // (the contractor's estimate), on_site, completed: it exits at the status event, not waiting for the
      // order.completed fact after it (the status event carries the final cost too)
      assert.equal(lines.length, 8, watched.stdout);
      const etaLine =
        format === "table"
          ? /en_route {2}ETA \S+[+-]\d\d:\d\d \(contractor\) {2}\(order\.eta_updated, evt_\d+\)$/
          : /"order\.eta_updated"/;
      assert.match(lines[5], etaLine);
      assert.match(lines.at(-1)!, /completed/);
      const completedAt = await completedTime(base, key, id);
      const exitLagMs = exitedAt - completedAt;
      console.error(`      --output ${format}: exited ${exitLagMs} ms after completed (${exitedAt - started} ms)`);
      assert.ok(exitLagMs < 1_500, `exited ${exitLagMs} ms after completed`);
    });
});

/** When the order's completed event was recorded (the feed's timestamp). */
async function completedTime(base: string, key: string, id: string): Promise<number> {
  const response = await fetch(`${base}/api/dispatch/v1/orders/${id}/events`, { headers: { "x-api-key": key } });
  const page = (await response.json()) as { items: { timestamp: string; data: { status: string } }[] };
  const completed = page.items.find((e) => e.data.status === "completed");
  assert.ok(completed, "no completed event");
  return Date.parse(completed.timestamp);
}
