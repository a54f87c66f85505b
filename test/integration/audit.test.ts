// Audit trail: own records (listAuditRecords), seal verification (verifySeal), append-only enforcement in the
// database, and tampering detected as valid:false (never a 500), on every test database.
import assert from "node:assert/strict";
import type { Knex } from "knex";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import type { components } from "../../sdk/generated/openapi.js";
import { createDispatchClient } from "../../sdk/index.js";
import { leafHashOfRow } from "../../server/services/audit/entries.js";
import { quoteRequest } from "../fixtures/requests.js";
import { databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";

type S = components["schemas"];
type Page = S["AuditRecordPage"];

const quote = ({ url, fetch }: ServerTarget, key: string) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(quoteRequest),
  });
const records = async ({ url, fetch }: ServerTarget, key: string, query = "") =>
  (await (await fetch(`${url}/api/audit/v1/records${query}`, { headers: { "x-api-key": key } })).json()) as Page;
const verify = ({ url, fetch }: ServerTarget, seal: string) => fetch(`${url}/api/attest/verify/${seal}`);

/** Changes a row behind the triggers' back: as superuser via replica mode, else as the table owner. */
async function tamper(db: Knex, seal: string, change: Record<string, unknown>): Promise<void> {
  const { rows } = await db.raw("select rolsuper from pg_roles where rolname = current_user");
  await db.transaction(async (trx) => {
    if (rows[0]?.rolsuper) await trx.raw("set local session_replication_role = replica");
    else await trx.raw("alter table audit_records disable trigger audit_records_no_change");
    await trx("audit_records").where({ seal }).update(change);
    if (!rows[0]?.rolsuper) await trx.raw("alter table audit_records enable trigger audit_records_no_change");
  });
}

for (const db of databases()) {
  describe(`audit trail (${db.name})`, function () {
    this.timeout(90_000);
    let t: TestServer;
    let acme: string;
    let other: string;
    let quoteSeals: string[];
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      acme = (await t.issueKey({ account: "acme" })).key;
      other = (await t.issueKey({ account: "other" })).key;
      for (let i = 0; i < 3; i++) assert.equal((await quote(t, acme)).status, 200);
      quoteSeals = (await records(t, acme, "?type=quote")).items.map((r) => r.seal).reverse();
      await t.app.services.auditLog.flush();
    });
    after(() => t?.stop());

    describe("listAuditRecords", () => {
      it("returns the caller's records newest first with content parsed back", async () => {
        const page = await records(t, acme);
        assert.deepEqual(
          page.items.map((r) => r.type),
          ["quote", "quote", "quote", "key_issued"],
        );
        const positions = page.items.map((r) => r.log_position);
        assert.deepEqual(
          positions,
          [...positions].sort((a, b) => b - a),
        );
        assert.equal(page.items[0].content.trade, "plumbing");
        assert.equal(page.items[3].content.environment, "test");
        assert.equal(page.next_cursor, null);
      });

      it("shows another account none of them", async () => {
        const page = await records(t, other);
        assert.deepEqual(
          page.items.map((r) => r.type),
          ["key_issued"],
        );
        assert.ok(page.items.every((r) => !quoteSeals.includes(r.seal)));
      });

      it("pages with an opaque cursor and filters by type", async () => {
        const first = await records(t, acme, "?limit=3");
        assert.equal(first.items.length, 3);
        assert.ok(first.next_cursor);
        const second = await records(t, acme, `?limit=3&cursor=${first.next_cursor}`);
        assert.deepEqual(
          second.items.map((r) => r.type),
          ["key_issued"],
        );
        assert.equal(second.next_cursor, null);
        assert.deepEqual(
          (await records(t, acme, "?type=key_issued")).items.map((r) => r.type),
          ["key_issued"],
        );
      });

      it("answers 401 without a key and 422 for a bad limit, type or cursor", async () => {
        assert.equal((await t.fetch(`${t.url}/api/audit/v1/records`)).status, 401);
        for (const query of ["?limit=0", "?limit=201", "?type=nope", "?cursor=bm9wZQ"]) {
          const response = await t.fetch(`${t.url}/api/audit/v1/records${query}`, { headers: { "x-api-key": acme } });
          assert.equal(response.status, 422, query);
        }
      });
    });

    describe("verifySeal", () => {
      it("reports an intact record valid without revealing content or account", async () => {
        const response = await verify(t, quoteSeals[0]);
        assert.equal(response.status, 200);
        const body = (await response.json()) as S["SealVerification"];
        assert.equal(body.valid, true);
        assert.equal(body.status, "valid");
        assert.equal(body.record_type, "quote");
        assert.deepEqual(Object.keys(body).sort(), [
          "chain_position",
          "checked_at",
          "checkpoint",
          "inclusion_proof",
          "leaf_hash",
          "leaf_index",
          "log_position",
          "record_type",
          "recorded_at",
          "seal",
          "status",
          "valid",
        ]);
        assert.equal(`seal_${body.leaf_hash}`, quoteSeals[0]);
      });

      it("answers 400 malformed_seal for a malformed seal and 404 without a result for an unknown one", async () => {
        for (const seal of ["nope", `seal_${"A".repeat(64)}`, `seal_${"a".repeat(63)}`, `seal_${"a".repeat(65)}`]) {
          const response = await verify(t, seal);
          assert.equal(response.status, 400, seal);
          assert.equal(((await response.json()) as { code: string }).code, "malformed_seal");
        }
        const unknown = await verify(t, `seal_${"ab".repeat(32)}`);
        assert.equal(unknown.status, 404);
        assert.equal(((await unknown.json()) as { valid?: boolean }).valid, undefined);
      });
    });

    describe("append-only enforcement", () => {
      it("refuses UPDATE, DELETE and TRUNCATE from the application connection", async () => {
        const audit = () => t.app.services.db("audit_records");
        await assert.rejects(audit().where({ seal: quoteSeals[0] }).update({ content: "{}" }), /append-only/);
        await assert.rejects(audit().where({ seal: quoteSeals[0] }).delete(), /append-only/);
        await assert.rejects(t.app.services.db.raw("truncate audit_records"), /append-only/);
        await assert.rejects(
          t.app.services.db.transaction(async (trx) => {
            await trx.raw("select set_config('dispatch.audit_purge', 'on', true)");
            await trx("audit_records").where({ seal: quoteSeals[0] }).delete();
          }),
          /append-only/,
        );
        assert.equal((await records(t, acme, "?type=quote")).items.length, 3);
      });

      it("reports a tampered record content_mismatch with a 200", async () => {
        await tamper(t.app.services.db, quoteSeals[0], { content: JSON.stringify({ trade: "forged" }) });
        const response = await verify(t, quoteSeals[0]);
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json().then((b) => [b.valid, b.status]), [false, "content_mismatch"]);
        assert.equal(((await (await verify(t, quoteSeals[1])).json()) as { status: string }).status, "valid");
      });

      it("reports a record re-sealed after integration content_mismatch: the tree keeps its leaf hash", async () => {
        const row = (await t.app.services.db("audit_records").where({ seal: quoteSeals[1] }).first())!;
        const content = JSON.stringify({ trade: "forged" });
        const forged = `seal_${leafHashOfRow({ ...row, content }).toString("hex")}`;
        await tamper(t.app.services.db, quoteSeals[1], { content, seal: forged });
        assert.equal((await verify(t, quoteSeals[1])).status, 404);
        const result = (await (await verify(t, forged)).json()) as S["SealVerification"];
        assert.deepEqual([result.valid, result.status], [false, "content_mismatch"]);
        assert.equal(((await (await verify(t, quoteSeals[2])).json()) as { status: string }).status, "valid");
      });
    });
  });
}

for (const db of databases()) {
  describe(`audit trail through the Prism validating proxy (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let prism: PrismHandle;
    before(async () => {
      t = await startTestServer(db);
      prism = await startPrism({ mode: "proxy", upstream: t.url });
    });
    after(async () => {
      await prism?.stop();
      await t?.stop();
    });

    it("listAuditRecords 200/401 and verifySeal 200 (valid and tampered)/404 conform", async () => {
      const key = (await t.issueKey({ account: "proxy" })).key;
      assert.equal((await quote(t, key)).status, 200);
      await t.app.services.auditLog.flush();
      const client = createDispatchClient({ baseUrl: prism.url, apiKey: key, retry: false });
      const conforms = (r: { response: Response }, status: number) => {
        assert.equal(
          r.response.headers.get("sl-violations"),
          null,
          `contract violation: ${r.response.headers.get("sl-violations")}`,
        );
        assert.equal(r.response.status, status);
      };
      const page = await client.GET("/api/audit/v1/records", { params: { query: { limit: 10, type: "quote" } } });
      conforms(page, 200);
      conforms(await createDispatchClient({ baseUrl: prism.url, retry: false }).GET("/api/audit/v1/records"), 401);
      const seal = page.data!.items[0].seal;
      const check = (s: string) => client.GET("/api/attest/verify/{seal}", { params: { path: { seal: s } } });
      conforms(await check(seal), 200);
      // The contract's seal pattern refuses a malformed seal, so the validating proxy answers it (its own 422)
      // without asking the server; the server's documented 400 is checked in contract-fidelity.test.ts.
      assert.equal((await check("seal_nope")).response.status, 422);
      conforms(await check(`seal_${"cd".repeat(32)}`), 404);
      await tamper(t.app.services.db, seal, { content: "not json" });
      const tampered = await check(seal);
      conforms(tampered, 200);
      assert.equal(tampered.data!.status, "content_mismatch");
      conforms(await client.GET("/api/audit/v1/records", { params: { query: { type: "quote" } } }), 200);
    });
  });
}
