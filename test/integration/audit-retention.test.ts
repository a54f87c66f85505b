// 7-year retention: purgeExpiredAudit (with a fake clock) removes the expired prefix of the chain through the
// database's purge function, anchors the boundary, and the oldest remaining record still verifies.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { parseVerifierKey, verifySealProof } from "../../sdk/attest.js";
import { purgeExpiredAudit } from "../../server/db/retention.js";
import { quoteRequest } from "../fixtures/requests.js";
import { databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";
import { sleep } from "../helpers/wait.js";

type Verification = components["schemas"]["SealVerification"];

const quote = ({ url, fetch }: ServerTarget, key: string) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(quoteRequest),
  });
const verify = async ({ url, fetch }: ServerTarget, seal: string) => {
  const response = await fetch(`${url}/api/attest/verify/${seal}`);
  return { status: response.status, body: (await response.json()) as Verification };
};
const sevenYearsAfter = (iso: string, extraMs: number) => {
  const at = new Date(iso);
  at.setUTCFullYear(at.getUTCFullYear() + 7);
  return new Date(at.getTime() + extraMs);
};

for (const db of databases()) {
  describe(`audit retention (${db.name})`, function () {
    this.timeout(90_000);
    let t: TestServer;
    let key: string;
    const chain = () => t.app.services.db("audit_records").orderBy("position").select("seal", "recorded_at");
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "keeper" })).key;
      assert.equal((await quote(t, key)).status, 200);
      await sleep(50);
      for (let i = 0; i < 2; i++) assert.equal((await quote(t, key)).status, 200);
      await t.app.services.auditLog.flush();
    });
    after(() => t?.stop());

    it("purges only records older than 7 years and anchors the boundary so the rest verifies", async () => {
      const before = await chain();
      assert.equal(before.length, 4);
      const now = sevenYearsAfter(new Date(before[1].recorded_at).toISOString(), 10);
      assert.equal(await purgeExpiredAudit(t.app.services.db, now), 2);
      const after = await chain();
      assert.deepEqual(
        after.map((r) => r.seal),
        before.slice(2).map((r) => r.seal),
      );
      assert.equal((await verify(t, before[1].seal)).status, 404);
      const oldest = await verify(t, after[0].seal);
      assert.deepEqual([oldest.status, oldest.body.status], [200, "valid"]);
      const pinned = parseVerifierKey(await (await t.fetch(`${t.url}/api/attest/key`)).text());
      verifySealProof(after[0].seal, oldest.body, pinned); // the tree's node hashes outlive the purged content
      const anchors = await t.app.services.db("audit_purge_boundaries").select("boundary_hash", "purged_count");
      assert.deepEqual(anchors, [{ boundary_hash: before[1].seal.slice(5), purged_count: 2 }]);
      assert.equal(await purgeExpiredAudit(t.app.services.db, now), 0);
    });

    it("keeps the chain verifiable after purging everything", async () => {
      assert.equal(await purgeExpiredAudit(t.app.services.db, new Date(Date.now() + 8 * 365 * 86_400_000)), 2);
      assert.equal((await chain()).length, 0);
      assert.equal((await quote(t, key)).status, 200);
      await t.app.services.auditLog.flush();
      const [fresh] = await chain();
      const result = await verify(t, fresh.seal);
      assert.deepEqual([result.body.valid, result.body.status], [true, "valid"]);
    });

    it("refuses deleting or rewriting anchors", async () => {
      await assert.rejects(t.app.services.db("audit_purge_boundaries").delete(), /append-only/);
      await assert.rejects(
        t.app.services.db("audit_purge_boundaries").update({ boundary_hash: "0".repeat(64) }),
        /append-only/,
      );
      await assert.rejects(t.app.services.db.raw("truncate audit_purge_boundaries"), /append-only/);
    });
  });
}
