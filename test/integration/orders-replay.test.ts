// An idempotent replay of createOrder is marked with Idempotent-Replayed: true; a new order is not.
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
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "replay" })).key;
    });
    after(() => t?.stop());

    describe("create()", () => {
      it("marks a replay with Idempotent-Replayed: true and the same body", async () => {
        const headers = { "x-api-key": key, "idempotency-key": "replay-1" };
        const body = { ...orderRequest, reference_id: undefined };
        const first = await postOrder(t.url, headers, body);
        const second = await postOrder(t.url, headers, body);
        assert.equal(first.headers.get("idempotent-replayed"), null);
        assert.equal(second.headers.get("idempotent-replayed"), "true");
        assert.equal(second.status, first.status);
        assert.equal(await second.text(), await first.text());
      });
    });
  });
}
