// The not-to-exceed rule on createOrder: the quote's NTE check decides, and an order is never dispatched above it.
import assert from "node:assert/strict";
import { getOrder, postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";

const job = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701", city: "Austin" },
  urgency: "emergency",
  description: "Burst pipe in the utility room.",
} as const;

interface QuoteBody {
  estimated_cost_cents: number;
  nte: unknown;
}

async function quote({ url, fetch }: ServerTarget, key: string, nte?: number): Promise<QuoteBody> {
  const response = await fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ trade: job.trade, location: job.location, urgency: job.urgency, nte_cents: nte }),
  });
  assert.equal(response.status, 200);
  return (await response.json()) as QuoteBody;
}

for (const db of databases()) {
  describe(`orders service NTE rule (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    let price: number;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "nte" })).key;
      price = (await quote(t, key)).estimated_cost_cents;
    });
    after(() => t?.stop());

    describe("create()", () => {
      it("holds an order over its NTE as 202 over_nte, unassigned, with the same check as the quote", async () => {
        const nte = price - 1;
        const quoted = await quote(t, key, nte);
        const response = await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: nte, reference_id: "n-1" });
        const body = await response.json();
        assert.equal(response.status, 202);
        assert.equal(body.fulfilled, false);
        assert.equal(body.order.status, "accepted_pending_fulfilment");
        assert.equal(body.order.assigned_contractor_ref, null);
        assert.equal(body.order.quoted_cost_cents, price);
        assert.deepEqual(body.order.nte, { nte_cents: nte, fits: false, headroom_cents: -1 });
        assert.deepEqual(body.order.nte, quoted.nte);
        assert.equal(body.fulfilment.reason, "over_nte");
        assert.ok(body.fulfilment.detail.includes(String(nte)), body.fulfilment.detail);
        const matches = await t.app.services.db("audit_records").where({ subject: body.order.id, type: "match" });
        assert.equal(matches.length, 0);
      });

      it("dispatches an order priced exactly at its NTE (201, fits, no headroom)", async () => {
        const response = await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: price, reference_id: "n-2" });
        const body = await response.json();
        assert.equal(response.status, 201);
        assert.match(body.order.assigned_contractor_ref, /^ctr_/);
        assert.deepEqual(body.order.nte, { nte_cents: price, fits: true, headroom_cents: 0 });
      });

      it("shows nte: null when no NTE was given", async () => {
        const response = await postOrder(t, { "x-api-key": key }, { ...job, reference_id: "n-3" });
        assert.equal(response.status, 201);
        assert.equal((await response.json()).order.nte, null);
      });
    });
  });

  describe(`sandbox and an order held over its NTE (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    let price: number;
    before(async () => {
      t = await startTestServer(db, { SANDBOX_STEP_MS: "50" }); // a port: the sandbox walker calls the server over HTTP
      key = (await t.issueKey({ account: "nte-sandbox" })).key;
      price = (await quote(t, key)).estimated_cost_cents;
    });
    after(() => t?.stop());

    const advance = (id: string, body: unknown) =>
      t.fetch(`${t.url}/api/dispatch/v1/sandbox/orders/${id}/advance`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(body),
      });

    it("never moves a held order, while an order within its NTE walks to completed", async () => {
      const held = await (await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: price - 1 })).json();
      const fits = await (await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: price })).json();
      assert.equal(held.fulfilment.reason, "over_nte");
      let status = "";
      for (let i = 0; i < 200 && status !== "completed"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = ((await (await getOrder(fits.tracking.status_url, key, t.fetch)).json()) as { status: string }).status;
      }
      assert.equal(status, "completed", "the sandbox walker ran");
      const view = (await (await getOrder(held.tracking.status_url, key, t.fetch)).json()) as {
        status: string;
        events: unknown[];
      };
      assert.equal(view.status, "accepted_pending_fulfilment");
      assert.equal(view.events.length, 1);
    });

    it("answers 409 held_over_nte to advancing a held order, one step or up to completed", async () => {
      const held = await (await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: price - 1 })).json();
      for (const body of [{}, { to: "completed" }]) {
        const response = await advance(held.order.id, body);
        assert.equal(response.status, 409);
        assert.equal(((await response.json()) as { code: string }).code, "held_over_nte");
      }
      const view = (await (await getOrder(held.tracking.status_url, key, t.fetch)).json()) as { status: string };
      assert.equal(view.status, "accepted_pending_fulfilment");
    });
  });
}
