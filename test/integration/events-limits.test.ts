// What an event stream may cost: streams per key, a lifetime, no life after its key is revoked, JSON pages that
// keep to `limit`, and nothing left behind (subscriber, slot, timer) by a stream that fails or is dropped.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { openSse, type SseClient } from "../helpers/sse.js";
import { until } from "../helpers/wait.js";

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

async function makeOrders(t: TestServer, key: string, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: `${prefix}-${i}` });
    assert.ok(response.status < 300, `order answered ${response.status}`);
  }
}

for (const db of databases()) {
  describe(`event stream limits (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const events = (t: TestServer) => `${t.url}/api/dispatch/v1/events`;
    before(async () => {
      t = await startTestServer(db);
    });
    after(() => t?.stop());
    afterEach(async () => {
      await until(() => t.app.services.eventStreams.stats().streams === 0, { timeoutMs: 10_000 });
    });

    it("answers a key's 11th concurrent stream 429 with Retry-After; other keys stream on; a closed one frees a slot", async () => {
      const { key } = await t.issueKey({ account: "capped" });
      const open: SseClient[] = [];
      try {
        for (let i = 0; i < 10; i++) open.push(await openSse(events(t), { "x-api-key": key }));
        assert.deepEqual(new Set(open.map((s) => s.status)), new Set([200]));
        const refused = await fetch(events(t), { headers: { "x-api-key": key, accept: "text/event-stream" } });
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get("content-type"), "application/problem+json");
        assert.ok(Number(refused.headers.get("retry-after")) > 0, "Retry-After");
        assert.equal(((await refused.json()) as { code: string }).code, "too_many_streams");
        const other = await openSse(events(t), { "x-api-key": (await t.issueKey({ account: "capped-2" })).key });
        open.push(other);
        assert.equal(other.status, 200);
        open.shift()!.close();
        await until(() => t.app.services.eventStreams.stats().slots === 10, { timeoutMs: 5000 });
        const again = await openSse(events(t), { "x-api-key": key });
        open.push(again);
        assert.equal(again.status, 200);
      } finally {
        for (const stream of open) stream.close();
      }
    });

    it("ends a stream within a few seconds of its key being revoked", async () => {
      const issued = await t.issueKey({ account: "revoked" });
      const stream = await openSse(events(t), { "x-api-key": issued.key });
      try {
        const revoked = await fetch(`${t.url}/api/admin/v1/keys/${issued.id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${adminToken}` },
        });
        assert.equal(revoked.status, 200);
        const started = Date.now();
        await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
        assert.ok(Date.now() - started < 5000, "the stream is still open 5 s after the revocation");
        assert.ok(stream.comments.includes("key revoked"), stream.comments.join(" | "));
      } finally {
        stream.close();
      }
    });

    it("keeps a JSON replay from evt_0 to `limit` and pages on with next_after", async () => {
      const { key } = await t.issueKey({ account: "paged" });
      await makeOrders(t, key, "paged", 5);
      const page = async (query: string) =>
        (await (await fetch(`${events(t)}?${query}`, { headers: { "x-api-key": key } })).json()) as {
          items: { id: string }[];
          next_after: string;
        };
      const first = await page("after=evt_0&limit=7"); // two events per matched order: created, assigned
      assert.equal(first.items.length, 7);
      const rest = await page(`after=${first.next_after}&limit=7`);
      assert.equal(rest.items.length, 3);
    });

    it("leaves no subscriber or slot behind streams dropped while opening or replaying", async () => {
      const { key } = await t.issueKey({ account: "dropped" });
      await makeOrders(t, key, "dropped", 20);
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const controller = new AbortController();
          setTimeout(() => {
            controller.abort();
          }, i % 10);
          await fetch(`${events(t)}?after=evt_0`, {
            headers: { "x-api-key": key, accept: "text/event-stream" },
            signal: controller.signal,
          })
            .then((response) => response.arrayBuffer())
            .catch(() => undefined);
        }),
      );
      await until(() => t.app.services.eventStreams.stats().slots === 0, { timeoutMs: 10_000 });
      assert.deepEqual(t.app.services.eventStreams.stats(), { streams: 0, live: 0, opening: 0, slots: 0 });
    });

    it("answers opens that fail before the first byte with a problem and keeps nothing of them", async () => {
      const { key } = await t.issueKey({ account: "failing" });
      const services = t.app.services;
      const bystander = await openSse(events(t), { "x-api-key": key }); // the hub is awake: opens go straight on
      // Past its replay (which reads the table about to be renamed): from now on only the hub's poll serves it.
      await until(() => services.eventStreams.stats().live === 1);
      const before = timers();
      await services.db.raw("alter table order_events rename to order_events_away");
      try {
        for (let i = 0; i < 5; i++) {
          const failed = await fetch(events(t), { headers: { "x-api-key": key, accept: "text/event-stream" } });
          assert.ok(failed.status >= 500, `answered ${failed.status}`);
          assert.equal(failed.headers.get("content-type"), "application/problem+json");
        }
      } finally {
        await services.db.raw("alter table order_events_away rename to order_events");
      }
      assert.deepEqual(services.eventStreams.stats(), { streams: 1, live: 1, opening: 0, slots: 1 });
      assert.ok(timers() <= before + 2, `timers ${before} -> ${timers()}`);
      bystander.close();
    });

    describe("lifetime", () => {
      let short: TestServer;
      before(async () => {
        short = await startTestServer(db, { EVENT_STREAM_MAX_SECONDS: "2" });
      });
      after(() => short?.stop());

      it("ends a stream after EVENT_STREAM_MAX_SECONDS with a comment telling the client to resume", async () => {
        const { key } = await short.issueKey({ account: "lifetime" });
        const started = Date.now();
        const stream = await openSse(events(short), { "x-api-key": key });
        let deadline: NodeJS.Timeout | undefined;
        try {
          await Promise.race([stream.ended, new Promise((resolve) => (deadline = setTimeout(resolve, 6000)))]);
          const lived = Date.now() - started;
          assert.ok(lived >= 1900 && lived < 5000, `the stream lived ${lived} ms`);
          assert.ok(
            stream.comments.some((c) => c.includes("lifetime reached; reconnect with Last-Event-ID")),
            stream.comments.join(" | "),
          );
          assert.equal(short.app.services.eventStreams.stats().streams, 0);
        } finally {
          clearTimeout(deadline); // the stream ended first: the 6 s guard must not outlive the test
          stream.close();
        }
      });
    });
  });
}
