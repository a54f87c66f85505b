// One order's contractor side in its customer's audit trail (issue #34, item 7): each offer, acceptance, decline,
// expiry and price revision is an audit record under the order's tenant, read back through listAuditRecords with the
// customer's key, in the order they happened (offer → decline → re-offer → expiry → re-offer → accept → revision →
// approval); another account's key and the other environment's see none of them.
import assert from "node:assert/strict";
import { admin, alaskaOrder, call, contractorKey, plumber } from "../helpers/contractors.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

interface AuditRecord {
  type: string;
  subject: string;
  content: Record<string, unknown>;
}

describe("the contractor side in the audit trail", function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer(undefined, { DISPATCHER_INTERVAL_MS: "1000" });
  });
  after(() => t?.stop());

  /** The records of `orderId` the key's tenant lists, oldest first (the API lists newest first). */
  async function recordsOf(key: string, orderId: string): Promise<AuditRecord[]> {
    const records: AuditRecord[] = [];
    for (const type of ["offer", "price_revision"]) {
      const page = await call(t, "GET", `/api/audit/v1/records?type=${type}&limit=200`, { "x-api-key": key });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      records.push(...(page.body.items as (AuditRecord & { log_position: number })[]).reverse());
    }
    return records.filter((r) => r.subject === orderId);
  }

  it("records offer, decline, re-offer, expiry, re-offer, accept, revision and approval under the order's tenant", async () => {
    const customer = (await t.issueKey({ account: "audited", environment: "live" })).key;
    const a = await plumber(t, "Audit A Plumbing", 8000);
    const b = await plumber(t, "Audit B Plumbing", 9000);
    const c = await plumber(t, "Audit C Plumbing", 10_000);
    const [aKey, cKey] = [(await contractorKey(t, a.id)).key, (await contractorKey(t, c.id)).key];
    const created = await call(t, "POST", "/api/dispatch/v1/order", { "x-api-key": customer }, alaskaOrder("aud-1"));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const orderId = (created.body.order as { id: string }).id;
    const openOffer = async (contractorId: string) =>
      untilValue(
        async () =>
          (await t.app.services
            .db("order_offers")
            .where({ order_id: orderId, contractor_id: contractorId, status: "offered" })
            .first()) as { id: string } | undefined,
        { timeoutMs: 10_000, intervalMs: 100, message: `an open offer to ${contractorId}` },
      );
    const toA = await openOffer(a.id);
    const declined = await call(
      t,
      "POST",
      `/api/dispatch/v1/contractor/offers/${toA.id}/decline`,
      { "x-api-key": aKey },
      {
        reason: "no_capacity",
      },
    );
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    const toB = await openOffer(b.id);
    await t.app.services
      .db("order_offers")
      .where({ id: toB.id })
      .update({ deadline_at: new Date(now() - 1000) });
    t.app.services.dispatcher.nudge();
    const toC = await openOffer(c.id);
    const accepted = await call(t, "POST", `/api/dispatch/v1/contractor/offers/${toC.id}/accept`, {
      "x-api-key": cKey,
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const revision = await call(
      t,
      "POST",
      `/api/dispatch/v1/contractor/jobs/${orderId}/price-revisions`,
      { "x-api-key": cKey },
      { amount_cents: 150_000, reason: "The whole stack needs replacing." },
    );
    assert.equal(revision.status, 201, JSON.stringify(revision.body));
    const revisionId = revision.body.id as string;
    const approved = await call(
      t,
      "POST",
      `/api/dispatch/v1/orders/${orderId}/price-revisions/${revisionId}/approve`,
      { "x-api-key": customer },
      {},
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));

    const records = await recordsOf(customer, orderId);
    assert.deepEqual(
      records.map((r) => [
        r.type,
        r.content.step,
        r.content.offer_id ?? r.content.revision_id,
        r.content.contractor_id ?? null,
      ]),
      [
        ["offer", "offered", toA.id, a.id],
        ["offer", "declined", toA.id, a.id],
        ["offer", "offered", toB.id, b.id],
        ["offer", "expired", toB.id, b.id],
        ["offer", "offered", toC.id, c.id],
        ["offer", "accepted", toC.id, c.id],
        ["price_revision", "requested", revisionId, c.id],
        ["price_revision", "approved", revisionId, c.id],
      ],
    );
    assert.equal(records[1].content.reason, "no_capacity");
    assert.equal(records[7].content.nte_cents_after, 150_000);
    // the records are the order's tenant's: another account and the same account's test environment see none
    const stranger = (await t.issueKey({ account: "audited-other", environment: "live" })).key;
    const sandbox = (await t.issueKey({ account: "audited", environment: "test" })).key;
    for (const key of [stranger, sandbox]) assert.deepEqual(await recordsOf(key, orderId), []);
    // and the operator's path is no way round: the admin token is not an audit reader
    const refused = await call(t, "GET", "/api/audit/v1/records", admin);
    assert.equal(refused.status, 401);
  });
});
