// `dispatch orders watch` and `dispatch listen` against the real server with the sandbox walking a test order,
// through a proxy the test cuts once so both commands must resume with Last-Event-ID.
import assert from "node:assert/strict";
import { localTime } from "../../cli/local-time.js";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, connect, type Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent, webhookSecret } from "../fixtures/orders.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { installBusinessTime } from "../helpers/business-time.js";
import { until } from "../helpers/wait.js";
import { runBin, runCli, startBin } from "./run-cli.js";
import { now } from "../../server/services/shared/clock.js";

interface Received {
  id: string;
  type: string;
  data: { order_id: string; status: string };
}

/** A TCP proxy to the server whose open connections the test can cut (a network drop). */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const cut = () => {
    for (const s of sockets) s.destroy();
  };
  const stop = () =>
    new Promise<void>(
      (resolve) => (
        cut(),
        server.close(() => {
          resolve();
        })
      ),
    );
  return { url, cut, stop };
}

/** A local webhook receiver that verifies every signature with the standardwebhooks library. */
async function startReceiver(secret: string) {
  const verifier = new Webhook(secret);
  const received: Received[] = [];
  const rejected: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      try {
        received.push(verifier.verify(body, req.headers as Record<string, string>) as Received);
        res.writeHead(204).end();
      } catch (error) {
        rejected.push((error as Error).message);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return {
    url,
    received,
    rejected,
    stop: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}

/** Polls every 100 ms, up to a minute. */
const liveWait = { timeoutMs: 60_000, intervalMs: 100 };

/** Each event of a sandbox order's walk (`<type> <status>`): the status events and the facts after them. */
const sandboxEvents = [
  "order.created pending_dispatch",
  "order.assigned pending_dispatch",
  "order.status_changed dispatched",
  "order.status_changed en_route",
  "order.eta_updated en_route",
  "order.status_changed on_site",
  "order.status_changed completed",
  "order.completed completed",
];

describe("cli live commands", function () {
  this.timeout(180_000);
  let t: TestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  let restoreClock: (() => void) | undefined;
  before(async () => {
    restoreClock = installBusinessTime(); // the window under way is reachable: the walk does not wait for one
    t = await startTestServer(undefined, { SANDBOX_STEP_MS: "1000" }); // a walk of 4 s: time for both commands to connect
    proxy = await startProxy(new URL(t.url));
  });
  after(async () => {
    await proxy?.stop();
    await t?.stop();
    restoreClock?.();
  });

  describe("listen and orders watch", () => {
    it("forward every event signed, once each, and watch exits 0 at completed across a dropped connection", async () => {
      const { key, account } = await t.issueKey({ account: "live-cli" });
      const receiver = await startReceiver(await webhookSecret(t.url, account));
      const env = { DISPATCH_API_KEY: key, DISPATCH_BASE_URL: proxy.url };
      const args = ["listen", "--forward-to", receiver.url]; // no --secret: fetched with the key (self-serve)
      const listen = startBin([...args, "--output", "ndjson"], { env });
      try {
        await until(() => listen.stderr.includes("ready"), { ...liveWait, message: "listen to connect" });
        const order = (await (await postOrder(t.url, { "x-api-key": key }, orderRequest)).json()) as {
          order: { id: string };
        };
        // The bin: the process must end at completed, with nothing of the dropped stream keeping it alive.
        let watchOut = "";
        const watch = runBin(["orders", "watch", order.order.id, "--output", "ndjson"], {
          env,
          onStdout: (soFar) => (watchOut = soFar),
        });
        await until(() => receiver.received.length >= 2, { ...liveWait, message: "the first forwarded events" });
        // Both commands hold their stream: live on the server, and on the client side an event already read through
        // the proxy (the server counts a stream live before its answer has crossed the proxy; a cut in between would
        // test the first request, which fails fast with exit 3 like any command's).
        await until(() => t.app.services.eventStreams.stats().live >= 2, { ...liveWait, message: "both streams" });
        await until(() => watchOut.includes("\n"), { ...liveWait, message: "watch's first event" });
        proxy.cut(); // both streams drop; each must resume after the last event it saw
        const watched = await watch;
        assert.equal(watched.code, 0, watched.stderr);
        const lines = watched.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Received);
        assert.equal(lines.at(-1)?.data.status, "completed");
        assert.equal(new Set(lines.map((e) => e.id)).size, lines.length, "watch printed an event twice");
        await until(() => receiver.received.some((e) => e.type === "order.completed"), {
          ...liveWait,
          message: "the order.completed event",
        });
        const events = receiver.received.map((e) => `${e.type} ${e.data.status}`);
        for (const event of sandboxEvents)
          assert.equal(events.filter((s) => s === event).length, 1, `${event} in ${events.join(",")}`);
        assert.deepEqual(receiver.rejected, []);
        assert.equal(new Set(receiver.received.map((e) => e.id)).size, receiver.received.length);
        assert.match(listen.stderr, /reconnecting/);
        assert.equal(listen.stdout.trim().split("\n").length, receiver.received.length);
      } finally {
        await listen.stop();
        await receiver.stop();
      }
    });

    it("listen keeps printing after `dispatch sandbox reset`, ids above every earlier one, lines as the feed serves them", async () => {
      const { key } = await t.issueKey({ account: "live-cli-reset" });
      const env = { DISPATCH_API_KEY: key, DISPATCH_BASE_URL: t.url };
      const listen = startBin(["listen", "--output", "ndjson"], { env });
      const printed = () =>
        listen.stdout
          .split("\n")
          .slice(0, -1) // whole lines only
          .map((line) => JSON.parse(line) as Received);
      const order = async () =>
        ((await (await postOrder(t.url, { "x-api-key": key }, orderRequest)).json()) as { order: { id: string } }).order
          .id;
      const printedOf = (id: string) => printed().filter((e) => e.data.order_id === id);
      try {
        await until(() => listen.stderr.includes("ready"), { ...liveWait, message: "listen to connect" });
        const removed = await order();
        await until(() => printedOf(removed).length >= 2, { ...liveWait, message: "the first order's events" });
        const reset = await runCli(["sandbox", "reset", "--output", "json"], { env });
        assert.equal(reset.code, 0, reset.stderr);
        const before = printed().map((e) => Number(e.id.slice(4)));
        const fresh = await order(); // its reference_id is free again
        // its first events, not only the sandbox's later steps of it
        await until(() => printedOf(fresh).some((e) => e.type === "order.created"), {
          ...liveWait,
          message: "the new order's order.created after reset",
        });
        const after = printedOf(fresh).map((e) => Number(e.id.slice(4)));
        assert.ok(Math.min(...after) > Math.max(...before), `${before.join()} then ${after.join()}`);
        const ids = printed().map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, ids.join());
        const lines = listen.stdout
          .split("\n")
          .slice(0, -1)
          .filter((line) => line.includes(fresh));
        const page = await fetch(`${t.url}/api/dispatch/v1/orders/${fresh}/events`, { headers: { "x-api-key": key } });
        const feed = ((await page.json()) as { items: unknown[] }).items.map((item) => JSON.stringify(item));
        assert.deepEqual(lines, feed.slice(0, lines.length)); // byte for byte (the walk may have gone on since)
      } finally {
        await listen.stop();
      }
    });
  });

  describe("orders watch", () => {
    it("exits 11 when the order is cancelled", async () => {
      const { key } = await t.issueKey({ account: "live-cli-cancel", environment: "live" });
      const order = (await (await postOrder(t.url, { "x-api-key": key }, orderRequest)).json()) as {
        order: { id: string };
      };
      const watch = runCli(["orders", "watch", order.order.id, "--output", "ndjson"], {
        env: { DISPATCH_API_KEY: key, DISPATCH_BASE_URL: t.url },
      });
      const cancel = await fetch(`${t.url}/api/dispatch/v1/orders/${order.order.id}/cancel`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ reason: "duplicate" }),
      });
      assert.equal(cancel.status, 200);
      const watched = await watch;
      assert.equal(watched.code, 11, watched.stderr);
      assert.match(watched.stderr, /cancelled/);
      assert.equal(watched.stdout.trim().split("\n").at(-1)?.includes('"order.cancelled"'), true);
    });

    it("prints each ETA update with the new estimated arrival and its source (--output table)", async () => {
      const { key } = await t.issueKey({ account: "live-cli-eta", environment: "live" }); // the sandbox leaves it be
      const order = (await (await postOrder(t.url, { "x-api-key": key }, orderRequest)).json()) as {
        order: { id: string };
      };
      const id = order.order.id;
      const watch = runCli(["orders", "watch", id, "--output", "table"], {
        env: { DISPATCH_API_KEY: key, DISPATCH_BASE_URL: t.url },
      });
      const [soon, later] = [40, 55].map((minutes) => new Date(now() + minutes * 60_000).toISOString());
      const steps = [
        { status: "dispatched", estimated_arrival_at: soon },
        { status: "en_route", estimated_arrival_at: later },
        { status: "on_site" },
        { status: "completed", final_cost_cents: 39_000 },
      ];
      for (const step of steps) assert.equal((await recordEvent(t.url, id, step)).status, 201);
      const watched = await watch;
      assert.equal(watched.code, 0, watched.stderr);
      const etaLines = watched.stdout.split("\n").filter((line) => line.includes("ETA "));
      assert.equal(etaLines.length, 3, watched.stdout);
      // times on the job's clock (a TX job: America/Chicago) with its offset, never UTC's Z
      const local = (iso: string) => localTime(iso, "America/Chicago").replace(/\+/g, "\\+");
      assert.match(etaLines[0], / {2}ETA \S+-0[56]:00 \(dispatch\) {2}\(order\.assigned, evt_\d+\)$/);
      assert.match(
        etaLines[1],
        new RegExp(`dispatched {2}ETA ${local(soon)} \\(operator\\) {2}\\(order\\.eta_updated, evt_\\d+\\)$`),
      );
      assert.match(
        etaLines[2],
        new RegExp(`en_route {2}ETA ${local(later)} \\(operator\\) {2}\\(order\\.eta_updated, evt_\\d+\\)$`),
      );
      for (const line of watched.stdout.trim().split("\n"))
        assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[56]:00 {2}ord_/);
    });

    it("exits 6 for another account's order", async () => {
      const { key } = await t.issueKey({ account: "live-cli-owner" });
      const other = (await t.issueKey({ account: "live-cli-other" })).key;
      const order = (await (await postOrder(t.url, { "x-api-key": key }, orderRequest)).json()) as {
        order: { id: string };
      };
      const watched = await runCli(["orders", "watch", order.order.id], {
        env: { DISPATCH_API_KEY: other, DISPATCH_BASE_URL: t.url },
      });
      assert.equal(watched.code, 6, watched.stderr);
    });
  });
});
