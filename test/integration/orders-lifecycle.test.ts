// recordOrderEvent: the documented transitions, audit and the evals numbers they move, on every test database.
import assert from "node:assert/strict";
import { contractorInput, orderRequest } from "../fixtures/requests.js";
import { getOrder, postOrder, recordEvent } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";

const akOrder = {
  trade: "hvac",
  location: { state: "AK", city: "Fairbanks" },
  urgency: "urgent",
  description: "No heat.",
} as const;

for (const db of databases()) {
  describe(`orders lifecycle (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const create = async (body: unknown = orderRequest) =>
      (await (await postOrder(t, { "x-api-key": key }, body)).json()).order.id as string;

    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "acme" })).key;
    });
    after(() => t?.stop());

    describe("recordEvent()", () => {
      it("walks pending_dispatch -> dispatched -> en_route -> on_site -> completed, audited, with history", async () => {
        const id = await create({ ...orderRequest, reference_id: "walk" });
        for (const status of ["dispatched", "en_route", "on_site"])
          assert.equal((await recordEvent(t, id, { status, note: `now ${status}` })).status, 201);
        const done = await recordEvent(t, id, {
          status: "completed",
          final_cost_cents: 41250,
          note: "Replaced supply line",
          human_override: false, // accepted, and overruled: an operator's event is a human override
        });
        const body = await done.json();
        assert.equal(done.status, 201);
        assert.deepEqual([body.status, body.final_cost_cents], ["completed", 41250]);
        assert.deepEqual(
          body.events.map((e: { status: string }) => e.status),
          ["pending_dispatch", "dispatched", "en_route", "on_site", "completed"],
        );
        // the created order's event is the service's; each of the operator's four is a human override
        assert.deepEqual(
          body.events.map((e: { human_override: boolean }) => e.human_override),
          [false, true, true, true, true],
        );
        assert.ok(body.updated_at >= body.created_at);
        const audit = await t.app.services
          .db("audit_records")
          .where({ subject: id, type: "order_status" })
          .orderBy("position");
        assert.equal(audit.length, 4);
        assert.deepEqual(await (await getOrder(body.tracking.status_url, key, t.fetch)).json(), body);
      });

      const invalid: [string, string[], string][] = [
        ["pending_dispatch", [], "en_route"],
        ["pending_dispatch", [], "completed"],
        ["dispatched", ["dispatched"], "on_site"],
        ["completed", ["dispatched", "en_route", "on_site", "completed"], "cancelled"],
        ["cancelled", ["cancelled"], "dispatched"],
      ];
      for (const [from, path, to] of invalid) {
        it(`answers 409 invalid_transition for ${from} -> ${to}`, async () => {
          const id = await create({ ...orderRequest, reference_id: `bad-${from}-${to}` });
          for (const status of path)
            await recordEvent(t, id, status === "completed" ? { status, final_cost_cents: 100 } : { status });
          const response = await recordEvent(t, id, { status: to, final_cost_cents: 1 });
          assert.equal(response.status, 409);
          assert.equal((await response.json()).code, "invalid_transition");
        });
      }

      it("requires final_cost_cents to complete (422), and answers 404 for an unknown order and 401 without the admin token", async () => {
        const id = await create({ ...orderRequest, reference_id: "no-final" });
        for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(t, id, { status });
        const missing = await recordEvent(t, id, { status: "completed" });
        assert.equal(missing.status, 422);
        assert.deepEqual(
          (await missing.json()).errors.map((e: { pointer: string }) => e.pointer),
          ["/final_cost_cents"],
        );
        assert.equal((await recordEvent(t, "ord_missing", { status: "cancelled" })).status, 404);
        const anonymous = await t.fetch(`${t.url}/api/admin/v1/orders/${id}/events`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"status":"cancelled"}',
        });
        assert.equal(anonymous.status, 401);
      });

      it("assigns an unassigned order: 409 while nobody covers it, then a named contractor (human override)", async () => {
        const id = await create(akOrder);
        const nobody = await recordEvent(t, id, { status: "pending_dispatch" });
        assert.equal(nobody.status, 409);
        const contractor = await (
          await t.fetch(`${t.url}/api/admin/v1/contractors`, {
            method: "POST",
            headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
            body: JSON.stringify({ ...contractorInput, trades: ["hvac"], service_areas: [{ state: "AK" }] }),
          })
        ).json();
        const assigned = await recordEvent(t, id, {
          status: "pending_dispatch",
          contractor_id: contractor.id,
          human_override: true,
          note: "Sourced by phone",
        });
        const body = await assigned.json();
        assert.equal(assigned.status, 201);
        assert.equal(body.assigned_contractor_ref, contractor.ref);
        assert.ok(body.quoted_cost_cents > 0);
        assert.equal(body.events.at(-1).human_override, true);
        const types = (await t.app.services.db("audit_records").where({ subject: id }).orderBy("position")).map(
          (r: { type: string }) => r.type,
        );
        // the assignment is an offer to the named contractor, audited with it
        assert.deepEqual(types, ["order", "offer", "match", "order_status"]);
      });
    });

    describe("evals", () => {
      it("completion, NTE accuracy, latency and override rates follow the recorded events", async () => {
        const fresh = await startTestServer(db, {}, { inject: true });
        try {
          const k = (await fresh.issueKey({ account: "evals", environment: "live" })).key;
          const make = async (body: unknown) =>
            (await (await postOrder(fresh, { "x-api-key": k }, body)).json()).order.id as string;
          const metrics = async () =>
            (await (await fresh.fetch(`${fresh.url}/api/dispatch/analytics/evals?period=rolling_7d`)).json()).metrics;
          const a = await make({ ...orderRequest, reference_id: "a" });
          const b = await make({ ...orderRequest, reference_id: "b" });
          await make(akOrder);
          let m = await metrics();
          assert.deepEqual(
            [
              m.completion_rate.value,
              m.goal_fulfillment_rate.value,
              m.dispatch_latency_p50_ms.sample_size,
              m.human_override_rate.value,
            ],
            [null, 0.6667, 2, 0],
          );
          for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(fresh, a, { status });
          await recordEvent(fresh, a, { status: "completed", final_cost_cents: 40000 });
          m = await metrics();
          // the operator's events are human overrides (contractors report their own status): a counts without the flag
          assert.deepEqual(
            [m.completion_rate.value, m.nte_accuracy_rate.value, m.human_override_rate.value],
            [1, 1, 0.3333],
          );
          await recordEvent(fresh, b, { status: "cancelled", human_override: true, note: "Customer called off" });
          m = await metrics();
          assert.deepEqual(
            [m.completion_rate.value, m.completion_rate.sample_size, m.human_override_rate.value],
            [0.5, 2, 0.6667],
          );
          assert.equal(m.dispatch_latency_p95_ms.provenance, "measurement");
        } finally {
          await fresh.stop();
        }
      });
    });
  });
}
