// createOrder with a quote_id: the quote's contractor and price kept, quote_id shown, and its 404/422/409 problems,
// on every test database.
import assert from "node:assert/strict";
import { oauthToken, postOrder } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { now } from "../../server/services/shared/clock.js";

interface QuoteBody {
  quote_id: string;
  estimated_cost_cents: number;
  estimated_cost_usd: string;
  availability: { best_match_ref: string };
}
interface Contractor {
  id: string;
  ref: string;
  hourly_rate_cents: number;
}

const roofing = { trade: "roofing", location: { state: "GA", city: "Atlanta" }, urgency: "routine" } as const;
// Two contractors serve it around the clock, so the second takes it at any hour the suite runs.
const plumbing = { trade: "plumbing", location: { state: "OH" }, urgency: "urgent" } as const;

for (const db of databases()) {
  describe(`orders from quotes (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const admin = (path: string, method = "GET", body?: unknown) =>
      t.fetch(`${t.url}/api/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const quote = async (body: unknown, credential: Record<string, string> = { "x-api-key": key }) => {
      const response = await t.fetch(`${t.url}/api/dispatch/v1/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", ...credential },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      return (await response.json()) as QuoteBody;
    };
    const order = async (body: Record<string, unknown>, k = key) => {
      const response = await postOrder(t, { "x-api-key": k }, { description: "Quoted job.", ...body });
      return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
    };
    const contractorOf = async (trade: string, state: string, ref: string) =>
      ((await (await admin(`/contractors?trade=${trade}&state=${state}&limit=200`)).json()).items as Contractor[]).find(
        (c) => c.ref === ref,
      )!;

    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "quoter" })).key;
    });
    after(() => t?.stop());

    it("keeps the quote's contractor and price although the pool has moved on, and shows quote_id", async () => {
      const q = await quote(roofing);
      const quoted = await contractorOf("roofing", "GA", q.availability.best_match_ref);
      // After the quote: the quoted contractor doubles its rate and a faster, cheaper one joins in Atlanta.
      await admin(`/contractors/${quoted.id}`, "PATCH", { hourly_rate_cents: quoted.hourly_rate_cents * 2 });
      const joined = await admin("/contractors", "POST", {
        name: "Atlanta Rapid Roofing",
        trades: ["roofing"],
        service_areas: [{ state: "GA", cities: ["Atlanta"] }],
        hourly_rate_cents: 4000,
        base_response_minutes: 20,
      });
      assert.equal(joined.status, 201);
      const fresh = await order({ ...roofing, reference_id: "fresh" });
      assert.notEqual(
        fresh.body.order.assigned_contractor_ref,
        q.availability.best_match_ref,
        "a fresh match moved on",
      );

      const made = await order({ ...roofing, quote_id: q.quote_id, reference_id: "from-quote" });
      assert.equal(made.status, 201);
      const summary = made.body.order;
      assert.deepEqual(
        [summary.assigned_contractor_ref, summary.quoted_cost_cents, summary.quoted_cost_usd, summary.quote_id],
        [q.availability.best_match_ref, q.estimated_cost_cents, q.estimated_cost_usd, q.quote_id],
      );
      const view = await (await t.fetch(made.body.tracking.status_url, { headers: { "x-api-key": key } })).json();
      assert.deepEqual(
        [view.quote_id, view.assigned_contractor_ref, view.quoted_cost_cents],
        [q.quote_id, q.availability.best_match_ref, q.estimated_cost_cents],
      );
      const listed = async (ref: string) =>
        (
          await (
            await t.fetch(`${t.url}/api/dispatch/v1/orders?reference_id=${ref}`, { headers: { "x-api-key": key } })
          ).json()
        ).items[0];
      assert.equal((await listed("from-quote")).quote_id, q.quote_id);
      assert.equal((await listed("fresh")).quote_id, null);
      assert.equal(fresh.body.order.quote_id, null);
      const audit = await t.app.services.db("audit_records").where({ subject: summary.id, type: "order" }).first();
      assert.equal(JSON.parse(audit!.content).quote_id, q.quote_id);
    });

    it("matches as usual when the quoted contractor is no longer active, at the quote's price", async () => {
      const q = await quote(plumbing);
      const quoted = await contractorOf("plumbing", "OH", q.availability.best_match_ref);
      await admin(`/contractors/${quoted.id}`, "PATCH", { active: false });
      const made = await order({ ...plumbing, quote_id: q.quote_id });
      assert.equal(made.status, 201);
      assert.match(made.body.order.assigned_contractor_ref, /^ctr_\*{4}[0-9a-f]{4}$/);
      assert.notEqual(made.body.order.assigned_contractor_ref, q.availability.best_match_ref);
      assert.deepEqual(
        [made.body.order.quoted_cost_cents, made.body.order.quote_id],
        [q.estimated_cost_cents, q.quote_id],
      );
    });

    it("checks the quote's price against nte_cents: under it dispatches, over it holds the order", async () => {
      const job = { trade: "hvac", location: { state: "TX" }, urgency: "routine" } as const;
      const q = await quote(job);
      const fits = await order({ ...job, quote_id: q.quote_id, nte_cents: q.estimated_cost_cents });
      assert.deepEqual([fits.status, fits.body.order.nte.fits], [201, true]);
      const over = await order({ ...job, quote_id: q.quote_id, nte_cents: q.estimated_cost_cents - 1 });
      assert.deepEqual(
        [
          over.status,
          over.body.fulfilment.reason,
          over.body.order.quoted_cost_cents,
          over.body.order.nte.headroom_cents,
        ],
        [202, "over_nte", q.estimated_cost_cents, -1],
      );
    });

    it("answers 404 for another account's quote, an OAuth-token quote and an unknown quote", async () => {
      const other = (await t.issueKey({ account: "someone-else" })).key;
      const theirs = await quote(roofing, { "x-api-key": other });
      const anonymous = await quote(roofing, { authorization: `Bearer ${await oauthToken(t)}` });
      for (const quoteId of [theirs.quote_id, anonymous.quote_id, "qt_01JD8X7K2M4Q9R3T5V7W9Y1A2B"]) {
        const answer = await order({ ...roofing, quote_id: quoteId });
        assert.equal(answer.status, 404, quoteId);
        assert.match(answer.type ?? "", /^application\/problem\+json/);
        assert.equal(answer.body.code, "not_found");
        assert.equal(answer.body.detail, `No quote ${quoteId} for this account.`);
      }
      assert.equal(
        (await order({ ...roofing, quote_id: theirs.quote_id }, other)).status,
        201,
        "its owner may order it",
      );
    });

    it("answers 422 quote_mismatch when the trade, state or urgency differs from the quote's", async () => {
      const q = await quote(roofing);
      const cases = [
        { body: { ...roofing, location: { state: "TX" } }, pointers: ["/location/state"] },
        { body: { ...roofing, trade: "plumbing" }, pointers: ["/trade"] },
        { body: { ...roofing, trade: "plumbing", location: { state: "TX" } }, pointers: ["/trade", "/location/state"] },
        { body: { ...roofing, urgency: "emergency" }, pointers: ["/urgency"] },
      ];
      for (const { body, pointers } of cases) {
        const answer = await order({ ...body, quote_id: q.quote_id });
        assert.equal(answer.status, 422);
        assert.match(answer.type ?? "", /^application\/problem\+json/);
        assert.deepEqual(
          [answer.body.type, answer.body.code],
          ["https://dispatch.example/problems/quote-mismatch", "quote_mismatch"],
        );
        assert.deepEqual(
          answer.body.errors.map((e: { pointer: string }) => e.pointer),
          pointers,
        );
      }
      const malformed = await order({ ...roofing, quote_id: "qt_lowercase-not-an-id" });
      assert.deepEqual([malformed.status, malformed.body.code], [422, "validation_failed"]);
    });

    it("answers 409 quote_expired past expires_at, and still replays an order made before", async () => {
      const q = await quote(roofing);
      const before = await order({ ...roofing, quote_id: q.quote_id, reference_id: "before-expiry" });
      assert.equal(before.status, 201);
      await t.app.services
        .db("quotes")
        .where({ id: q.quote_id })
        .update({ expires_at: new Date(now() - 1000) });
      const late = await order({ ...roofing, quote_id: q.quote_id, reference_id: "after-expiry" });
      assert.equal(late.status, 409);
      assert.match(late.type ?? "", /^application\/problem\+json/);
      assert.deepEqual(
        [late.body.type, late.body.code],
        ["https://dispatch.example/problems/quote-expired", "quote_expired"],
      );
      const replay = await order({ ...roofing, quote_id: q.quote_id, reference_id: "before-expiry" });
      assert.deepEqual([replay.status, replay.body.order.id], [201, before.body.order.id]);
    });
  });
}
