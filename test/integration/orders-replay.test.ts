// An idempotent replay of createOrder is marked with Idempotent-Replayed: true; a new order is not. Orders sent
// together share one write (group commit): a reference_id repeated inside one batch still makes one order.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`orders service replays (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "replay" })).key;
    });
    after(() => t?.stop());

    describe("create()", () => {
      it("marks a replay with Idempotent-Replayed: true and the same body", async () => {
        const headers = { "x-api-key": key, "idempotency-key": "replay-1" };
        const body = { ...orderRequest, reference_id: undefined };
        const first = await postOrder(t, headers, body);
        const second = await postOrder(t, headers, body);
        assert.equal(first.headers.get("idempotent-replayed"), null);
        assert.equal(second.headers.get("idempotent-replayed"), "true");
        assert.equal(second.status, first.status);
        assert.equal(await second.text(), await first.text());
      });

      it("refuses an empty reference_id with 422 (else it would be stored and its identical retry answered 409)", async () => {
        const headers = { "x-api-key": key };
        const first = await postOrder(t, headers, { ...orderRequest, reference_id: "" });
        const retry = await postOrder(t, headers, { ...orderRequest, reference_id: "" });
        assert.deepEqual([first.status, retry.status], [422, 422]);
        const body = (await first.json()) as { errors: { pointer: string }[] };
        assert.ok(
          body.errors.some((e) => e.pointer === "/reference_id"),
          JSON.stringify(body),
        );
        const stored = await t.app.services.db("orders").where({ reference_id: "" }).count({ n: "*" });
        assert.equal(Number(stored[0].n), 0);
      });

      it("orders sent at once: distinct ones are all created, a repeated reference_id makes one order", async () => {
        const headers = { "x-api-key": key };
        const sends = [
          ...Array.from({ length: 12 }, (_, i) => ({ ...orderRequest, reference_id: `batch-distinct-${i}` })),
          ...Array.from({ length: 8 }, () => ({ ...orderRequest, reference_id: "batch-same" })),
        ].map((body) => postOrder(t, headers, body));
        const answers = await Promise.all(sends);
        const bodies = (await Promise.all(answers.map((r) => r.json()))) as { order: { id: string } }[];
        const distinct = bodies.slice(0, 12).map((b) => b.order.id);
        assert.equal(new Set(distinct).size, 12);
        // Created: 201 assigned, or 202 waiting once the pool's seats in the horizon are taken (how many orders
        // that allows depends on the hour).
        assert.ok(
          answers.slice(0, 12).every((r) => [201, 202].includes(r.status) && !r.headers.has("idempotent-replayed")),
        );
        const same = answers.slice(12);
        assert.equal(
          new Set(bodies.slice(12).map((b) => b.order.id)).size,
          1,
          "one order for the repeated reference_id",
        );
        assert.equal(same.filter((r) => r.headers.get("idempotent-replayed") === "true").length, 7);
        const stored = await t.app.services.db("orders").where({ reference_id: "batch-same" }).count({ n: "*" });
        assert.equal(Number(stored[0].n), 1);
      });
    });
  });
}
