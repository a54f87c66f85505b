// listEvents / listOrderEvents: the JSON feed and the SSE stream with Last-Event-ID resume, on every test database.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";

/** Reads SSE frames until `count` events arrived, then drops the connection (as a network cut would). */
async function readEvents(url: string, key: string, count: number, lastEventId?: string) {
  const controller = new AbortController();
  const headers: Record<string, string> = { "x-api-key": key, accept: "text/event-stream" };
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  assert.equal(response.headers.get("content-type")?.split(";")[0], "text/event-stream");
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { id: string; type: string; data: { status: string } }[] = [];
  let buffer = "";
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const frames = buffer.split("\n\n");
    buffer = frames.pop()!;
    for (const f of frames) {
      const data = /^data: (.*)$/m.exec(f)?.[1];
      if (data) events.push(JSON.parse(data));
    }
  }
  controller.abort();
  return events;
}

for (const db of databases()) {
  describe(`events (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const advance = (id: string) =>
      fetch(`${t.url}/api/dispatch/v1/sandbox/orders/${id}/advance`, { method: "POST", headers: { "x-api-key": key } });

    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "events" })).key;
    });
    after(() => t?.stop());

    it("listEvents pages the account's events oldest first with webhook-shaped data", async () => {
      const order = await (
        await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: "e1" })
      ).json();
      await advance(order.order.id);
      const other = (await t.issueKey({ account: "someone-else" })).key;
      await postOrder(t.url, { "x-api-key": other }, { ...orderRequest, reference_id: "e-other" });
      const first = await (
        await fetch(`${t.url}/api/dispatch/v1/events?limit=1`, { headers: { "x-api-key": key } })
      ).json();
      assert.deepEqual(
        first.items.map((e: { type: string }) => e.type),
        ["order.created"],
      );
      const rest = await (
        await fetch(`${t.url}/api/dispatch/v1/events?after=${first.next_after}`, { headers: { "x-api-key": key } })
      ).json();
      assert.deepEqual(
        rest.items.map((e: { type: string; data: { status: string; previous_status: string } }) => [
          e.type,
          e.data.previous_status,
          e.data.status,
        ]),
        [
          ["order.assigned", null, "pending_dispatch"], // the fact of creation, right after order.created
          ["order.status_changed", "pending_dispatch", "dispatched"],
          ["order.assigned", "pending_dispatch", "dispatched"], // the simulated contractor accepted its offer
        ],
      );
    });

    it("streams an order live and resumes with Last-Event-ID without losing or repeating an event", async () => {
      const order = await (
        await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: "e2" })
      ).json();
      const url = `${t.url}/api/dispatch/v1/orders/${order.order.id}/events`;
      const reading = readEvents(url, key, 6);
      await advance(order.order.id);
      await advance(order.order.id);
      const before = await reading; // created, assigned, dispatched, assigned (the accept), en_route, eta_updated; then the connection is cut
      await advance(order.order.id); // on_site while nobody listens
      const resumed = readEvents(url, key, 3, before.at(-1)!.id);
      await advance(order.order.id); // completed, live
      const after = await resumed;
      assert.deepEqual(
        [...before, ...after].map((e) => [e.type, e.data.status]),
        [
          ["order.created", "pending_dispatch"],
          ["order.assigned", "pending_dispatch"],
          ["order.status_changed", "dispatched"],
          ["order.assigned", "dispatched"],
          ["order.status_changed", "en_route"],
          ["order.eta_updated", "en_route"],
          ["order.status_changed", "on_site"],
          ["order.status_changed", "completed"],
          ["order.completed", "completed"],
        ],
      );
      assert.equal(new Set([...before, ...after].map((e) => e.id)).size, 9);
    });

    it("reads no events while no stream is open, and a stream opened later (no resume point) gets only new ones", async () => {
      // The streams of the tests above have closed and a poll tick begun while they were open has finished (no
      // condition to wait on for the latter: it is proving an absence).
      await sleep(500);
      const reads: string[] = [];
      const listener = (q: { sql: string }) => {
        if (q.sql.includes('from "order_events" as "e"')) reads.push(q.sql);
      };
      t.app.services.db.on("query", listener);
      try {
        for (const ref of ["idle-1", "idle-2", "idle-3"])
          await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: ref });
        await sleep(700); // three poll intervals with no read: the absence is the point
        assert.deepEqual(reads, []);
      } finally {
        t.app.services.db.removeListener("query", listener);
      }
      const reading = readEvents(`${t.url}/api/dispatch/v1/events`, key, 1);
      await until(() => t.app.services.eventStreams.stats().streams === 1); // the stream is open before the next order
      const fresh = await (
        await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: "after-open" })
      ).json();
      const [event] = await reading;
      assert.equal((event.data as { order_id?: string }).order_id, fresh.order.id);
    });
  });
}
