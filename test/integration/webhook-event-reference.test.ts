// A webhook message delivers the event it references by id, whatever the order's other events and messages: the
// body is that event as the feed renders it, byte for byte, and its webhook-id is the event's id.
import assert from "node:assert/strict";
import { freePort } from "../../mocks/prism.js";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent, startReceiver, webhookSecret } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import type { components } from "../../sdk/generated/openapi.js";
import { until } from "../helpers/wait.js";

const fast = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20", WEBHOOK_BACKOFF_MS: "50" };

for (const db of databases()) {
  describe(`webhook event reference (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, fast, { inject: true });
      key = (await t.issueKey({ account: "acme" })).key;
    });
    after(() => t?.stop());

    it("delivers the referenced event of an order with many events and no earlier messages", async () => {
      // No callback_url: the order's events have no messages, so the message below is the order's first one.
      const id = (await (await postOrder(t, { "x-api-key": key }, orderRequest)).json()).order.id as string;
      for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(t, id, { status });
      const feed = async () => {
        const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}/events`, {
          headers: { "x-api-key": key },
        });
        return ((await response.json()) as { items: components["schemas"]["DispatchEvent"][] }).items;
      };
      await until(async () => (await feed()).length === 5); // created, assigned and three status changes
      const onSite = (await feed()).find((event) => event.data.status === "on_site")!;
      const row = await t.app.services.db("order_events").where({ order_id: id, status: "on_site" }).first("id");

      const port = await freePort();
      const receiver = await startReceiver(port);
      try {
        await webhookSecret(t, "acme"); // the tenant's signing secret exists before the message
        await t.app.services.db("webhook_outbox").insert({
          message_id: "msg_reference",
          order_id: id,
          account: "acme",
          environment: "test",
          url: `http://127.0.0.1:${port}/`,
          event_id: row!.id,
          status_base_url: t.url,
        });
        await until(() => receiver.deliveries.length >= 1);
        const [delivery] = receiver.deliveries;
        assert.equal(delivery.raw, JSON.stringify(onSite));
        assert.equal(delivery.headers["webhook-id"], onSite.id);
      } finally {
        await receiver.stop();
      }
    });
  });
}
