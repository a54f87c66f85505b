// The not-to-exceed rule on every path: createOrder (the quote's NTE check decides), the dispatcher, the sandbox (its
// clock and advancing by hand) and operators' events never dispatch or complete an order above it; only an operator's
// override with a reason goes above it, audited and counted as a human override.
import assert from "node:assert/strict";
import { anchorageContractor } from "../fixtures/requests.js";
import { getOrder, postOrder, recordEvent } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { installBusinessTime } from "../helpers/business-time.js";

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
        const matches = await t.app.services
          .db("audit_records")
          .where({ subject: body.order.id, type: "match" })
          .orderBy("position");
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

      it("answers getOrder with createOrder's nte object, byte for byte, beside nte_cents", async () => {
        for (const [nte, reference] of [
          [price - 1, "n-4"],
          [price, "n-5"],
          [undefined, "n-6"],
        ] as const) {
          const created = await postOrder(t, { "x-api-key": key }, { ...job, nte_cents: nte, reference_id: reference });
          const body = (await created.json()) as { order: { id: string; nte: unknown } };
          const read = await t.fetch(`${t.url}/api/dispatch/v1/orders/${body.order.id}`, {
            headers: { "x-api-key": key },
          });
          const order = (await read.json()) as { nte: unknown; nte_cents: number | null };
          assert.equal(JSON.stringify(order.nte), JSON.stringify(body.order.nte), reference);
          assert.equal(order.nte_cents, nte ?? null);
        }
      });
    });
  });

  describe(`sandbox and an order held over its NTE (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    let price: number;
    let restoreClock: (() => void) | undefined;
    before(async () => {
      restoreClock = installBusinessTime(); // the window under way is reachable: the walk does not wait for one
      t = await startTestServer(db, { SANDBOX_STEP_MS: "50" }); // a port: the sandbox walker calls the server over HTTP
      key = (await t.issueKey({ account: "nte-sandbox" })).key;
      price = (await quote(t, key)).estimated_cost_cents;
    });
    after(async () => {
      await t?.stop();
      restoreClock?.();
    });

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
      const status = async () =>
        ((await (await getOrder(fits.tracking.status_url, key, t.fetch)).json()) as { status: string }).status;
      await until(async () => (await status()) === "completed", {
        timeoutMs: 10_000,
        intervalMs: 50,
        message: "the sandbox walker to complete the order",
      });
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

  describe(`sandbox clock at its sandbox-mode interval and an order nobody covers yet, within its NTE (${db.name})`, function () {
    this.timeout(120_000);
    const stepMs = 500; // SANDBOX_STEP_MS's default in sandbox mode
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, { SANDBOX_STEP_MS: String(stepMs) });
      key = (await t.issueKey({ account: "nte-alaska" })).key;
    });
    after(() => t?.stop());

    const alaska = { ...job, location: { state: "AK", city: "Anchorage" } };
    const view = async (statusUrl: string) =>
      (await (await getOrder(statusUrl, key, t.fetch)).json()) as {
        status: string;
        events: unknown[];
        quoted_cost_cents: number | null;
        final_cost_cents: number | null;
        assigned_contractor_ref: string | null;
      };

    it("never completes an nte_cents: 1 order in AK (dispatcher, walker or advance), while one without an NTE walks on", async () => {
      const capped = await (await postOrder(t, { "x-api-key": key }, { ...alaska, nte_cents: 1 })).json();
      const open = await (await postOrder(t, { "x-api-key": key }, alaska)).json();
      assert.equal(capped.fulfilment.reason, "no_contractor_in_area");
      // A contractor joins: the dispatcher assigns the open order (the walker then walks it) and holds the capped one.
      await t.app.services.contractors.create(anchorageContractor("plumbing", "Anchorage Emergency Plumbing"));
      // dispatched by the walker's first step (it sets off for the booked window on the wall clock, hours ahead)
      const moving = ["dispatched", "en_route", "on_site", "completed"];
      await until(async () => moving.includes((await view(open.tracking.status_url)).status), {
        timeoutMs: 30_000,
        intervalMs: 250,
        message: "the walker to move the uncapped order (the capped one must not move over the same time)",
      });
      const held = await view(capped.tracking.status_url);
      assert.equal(held.status, "accepted_pending_fulfilment");
      assert.equal(held.events.length, 1);
      assert.equal(held.assigned_contractor_ref, null);
      assert.equal(held.final_cost_cents, null);
      assert.ok(held.quoted_cost_cents! > 1, "held at its match's price, as live holds an order");
      for (const body of [{}, { to: "completed" }]) {
        const response = await t.fetch(`${t.url}/api/dispatch/v1/sandbox/orders/${capped.order.id}/advance`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 409);
        assert.equal(((await response.json()) as { code: string }).code, "held_over_nte");
      }
      assert.equal((await view(capped.tracking.status_url)).status, "accepted_pending_fulfilment");
    });
  });

  describe(`operator events and the NTE (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    let price: number;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "nte-live", environment: "live" })).key;
      price = (await quote(t, key)).estimated_cost_cents;
    });
    after(() => t?.stop());

    const nte = 10_000;
    const order = async (body: unknown) => (await (await postOrder(t, { "x-api-key": key }, body)).json()).order.id;
    const event = async (id: string, body: unknown) => {
      const response = await recordEvent(t, id, body);
      return { status: response.status, body: await response.json() };
    };
    /** The evals' human_override_rate, checked against the Metric shape the contract gives it. */
    const overridesRate = async () => {
      const response = await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`);
      assert.equal(response.status, 200);
      const metric = (await response.json()).metrics.human_override_rate;
      assert.deepEqual(Object.keys(metric).sort(), ["provenance", "sample_size", "unit", "value"]);
      assert.deepEqual([metric.unit, metric.provenance, metric.sample_size], ["ratio", "measurement", 2]);
      return metric.value as number;
    };
    const override = { nte_override: true, override_reason: "Customer approved the higher price by phone." };

    it("refuses to dispatch or complete a held live order above its NTE, then allows it with an override", async () => {
      assert.ok(price > nte, `the TX price ${price} is over ${nte}`);
      const id = await order({ ...job, nte_cents: nte, reference_id: "held" });
      await order({ ...job, reference_id: "plain" });
      assert.equal(await overridesRate(), 0);
      const refused = await event(id, { status: "pending_dispatch" });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, "over_nte");
      assert.match(refused.body.detail, new RegExp(`expected cost of ${price} cents .*not-to-exceed of ${nte} cents`));
      const noReason = await event(id, { status: "pending_dispatch", nte_override: true });
      assert.equal(noReason.status, 422);
      assert.equal(noReason.body.errors[0].pointer, "/override_reason");
      assert.equal((await event(id, { status: "pending_dispatch", ...override })).status, 201);
      assert.equal((await event(id, { status: "dispatched" })).body.code, "over_nte");
      assert.equal((await event(id, { status: "dispatched", ...override })).status, 201);
      for (const status of ["en_route", "on_site"]) assert.equal((await event(id, { status })).status, 201);
      const late = await event(id, { status: "completed", final_cost_cents: 60_000 });
      assert.equal(late.status, 409);
      assert.match(late.body.detail, /final cost of 60000 cents is over its not-to-exceed of 10000 cents/);
      const done = await event(id, { status: "completed", final_cost_cents: 60_000, ...override });
      assert.equal(done.status, 201);
      assert.deepEqual([done.body.status, done.body.final_cost_cents], ["completed", 60_000]);
      const flags = done.body.events.map((e: { status: string; human_override: boolean }) => [
        e.status,
        e.human_override,
      ]);
      assert.deepEqual(flags, [
        ["accepted_pending_fulfilment", false],
        ["pending_dispatch", true],
        ["dispatched", true],
        // every operator event is a human override, with or without the NTE override
        ["en_route", true],
        ["on_site", true],
        ["completed", true],
      ]);
      const records = await t.app.services
        .db("audit_records")
        .where({ subject: id, type: "order_status" })
        .orderBy("position");
      const overrides = records
        .map((record: { content: string }) => JSON.parse(record.content))
        .filter((content: { nte_override?: unknown }) => content.nte_override);
      assert.deepEqual(
        overrides.map((c: { to: string; human_override: boolean; nte_override: unknown }) => [
          c.to,
          c.human_override,
          c.nte_override,
        ]),
        [
          ["pending_dispatch", true, { nte_cents: nte, cost_cents: price, reason: override.override_reason }],
          ["dispatched", true, { nte_cents: nte, cost_cents: price, reason: override.override_reason }],
          ["completed", true, { nte_cents: nte, cost_cents: 60_000, reason: override.override_reason }],
        ],
      );
      assert.equal(await overridesRate(), 0.5); // one of the two live orders
    });

    it("refuses to complete an order dispatched within its NTE at a final cost above it", async () => {
      const id = await order({ ...job, nte_cents: price, reference_id: "fits" });
      for (const status of ["dispatched", "en_route", "on_site"])
        assert.equal((await event(id, { status })).status, 201);
      const over = await event(id, { status: "completed", final_cost_cents: price + 1 });
      assert.equal(over.status, 409);
      assert.equal(over.body.code, "over_nte");
      assert.equal((await event(id, { status: "completed", final_cost_cents: price })).status, 201);
    });

    it("answers 422 to a reason without the override", async () => {
      const id = await order({ ...job, reference_id: "reason-only" });
      const response = await event(id, { status: "dispatched", override_reason: "No reason to override." });
      assert.equal(response.status, 422);
      assert.equal(response.body.errors[0].pointer, "/override_reason");
    });
  });
}
