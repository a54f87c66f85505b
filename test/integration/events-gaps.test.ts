// The event feed over holes in order_events ids (a rolled-back insert, a group commit that fails on a 23505):
// streams and pages deliver the events after a hole at once, on every test database and across instances.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { openSse, type SseClient } from "../helpers/sse.js";
import { until } from "../helpers/wait.js";

/** Well under the 5 s a reader used to wait at each hole, well over a sequencer interval plus a poll. */
const promptMs = 1500;

async function orderId(t: TestServer, key: string, reference_id: string): Promise<string> {
  const response = await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id });
  assert.ok(response.status < 300, `order answered ${response.status}`);
  return ((await response.json()) as { order: { id: string } }).order.id;
}

/** Takes an order_events id and rolls back: the hole a failed write leaves. */
async function rolledBackEvent(t: TestServer, order: string): Promise<void> {
  const failed = t.app.services.db.transaction(async (trx) => {
    const tenant = await trx("orders").where({ id: order }).first("account", "environment");
    await trx("order_events").insert({
      order_id: order,
      type: "order.status_changed",
      status: "dispatched",
      previous_status: "pending_dispatch",
      ...{ reference_id: null, contractor_id: null, quoted_cost_cents: null },
      ...tenant!,
    });
    throw new Error("rolled back on purpose");
  });
  await assert.rejects(failed, /rolled back on purpose/);
}

/** The same reference_id three times at once: the group-committed batch fails on a 23505, holes and all. */
async function conflictingOrders(t: TestServer, key: string, reference_id: string): Promise<void> {
  const answers = await Promise.all(
    [1, 2, 3].map(() => postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id })),
  );
  for (const answer of answers) assert.ok(answer.status < 500, `order answered ${answer.status}`);
}

async function arrivalDelay(stream: SseClient, order: string, since: number): Promise<number> {
  await until(() => stream.events.some((e) => e.data.order_id === order), { timeoutMs: 15_000 });
  return stream.events.find((e) => e.data.order_id === order)!.at - since;
}

for (const db of databases()) {
  describe(`event feed over id holes (${db.name})`, function () {
    this.timeout(90_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "holes" })).key;
    });
    after(() => t?.stop());

    it("a stream and a page deliver the events after a rolled-back insert and a failed batch at once", async () => {
      const stream = await openSse(`${t.url}/api/dispatch/v1/events`, { "x-api-key": key });
      try {
        await until(() => stream.comments.includes("stream open")); // the stream is live
        const first = await orderId(t, key, "hole-1");
        await rolledBackEvent(t, first);
        await conflictingOrders(t, key, "hole-dup");
        const started = Date.now();
        const later = await orderId(t, key, "hole-2");
        const page = (await (
          await fetch(`${t.url}/api/dispatch/v1/events?limit=200`, { headers: { "x-api-key": key } })
        ).json()) as { items: { data: { order_id: string } }[] };
        assert.ok(
          page.items.some((e) => e.data.order_id === later),
          "the page has the order made just before it",
        );
        const delay = await arrivalDelay(stream, later, started);
        assert.ok(delay < promptMs, `the event after the holes took ${delay} ms`);
        const ids = stream.events.map((e) => Number(e.id.slice(4)));
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
          "feed order",
        );
        assert.equal(new Set(ids).size, ids.length, "each event once");
      } finally {
        stream.close();
      }
    });

    if (db.name === "postgres")
      it("an instance's stream gets another instance's events at once past that instance's holes", async () => {
        const second = await startTestServer(db, { DATABASE_URL: t.databaseUrl });
        const stream = await openSse(`${t.url}/api/dispatch/v1/events`, { "x-api-key": key });
        try {
          await until(() => stream.comments.includes("stream open")); // the stream is live
          await rolledBackEvent(second, await orderId(second, key, "other-1"));
          await conflictingOrders(second, key, "other-dup");
          const started = Date.now();
          const later = await orderId(second, key, "other-2");
          const delay = await arrivalDelay(stream, later, started);
          assert.ok(delay < promptMs, `the other instance's event took ${delay} ms`);
        } finally {
          stream.close();
          await second.app.stop();
        }
      });
  });
}
