// The attest API over a running server: seals pending then valid, proofs checked offline with the SDK against the
// pinned key, consistency between checkpoints, tamper detection, and the statements one quote and one order cost.
import assert from "node:assert/strict";
import type { Knex } from "knex";
import {
  openCheckpoint,
  parseVerifierKey,
  verifyConsistency,
  verifySealProof,
  type VerifierKey,
} from "../../sdk/attest.js";
import type { components } from "../../sdk/generated/openapi.js";
import { appendAuditRows, auditRow } from "../../server/services/audit/entries.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";
import { jsonRequest } from "../helpers/request.js";

type Verification = components["schemas"]["SealVerification"];

const post = (target: ServerTarget, path: string, key: string, body: unknown) =>
  jsonRequest(target, "POST", path, { headers: { "x-api-key": key }, body });
const verify = async ({ url, fetch }: ServerTarget, seal: string) =>
  (await (await fetch(`${url}/api/attest/verify/${seal}`)).json()) as Verification;
const checkpoint = async ({ url, fetch }: ServerTarget, key: VerifierKey) =>
  openCheckpoint(await (await fetch(`${url}/api/attest/checkpoint`)).text(), key);

/** The one read of a quote's or order's candidates' bookings (services/dispatch/bookings.ts). */
const isBookingsRead = (sql: string) => sql.startsWith("select contractor_id, seat, day_seat");
/** A test key's request runs on its account's sandbox clock, which a warm server answers from its cache
 * (sandbox/clock-cache.ts): no read of sandbox_clocks. */
const isClockRead = (sql: string) => sql.includes('from "sandbox_clocks"');
/** A warm test key's statements, asserted to hold no clock read. */
function withoutClockRead(sql: string[]): string[] {
  assert.equal(sql.filter(isClockRead).length, 0, sql.join("\n"));
  return sql;
}

/** Counts the SQL statements `run` sends (knex's 'query' event fires once per round trip). */
async function countStatements(db: Knex, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  // Background jobs share the handle: the sequencers run in transactions (knex tags those statements with a
  // transaction id) and the webhook worker claims with one UPDATE. None of them belongs to the call measured.
  const listener = (q: { sql: string; __knexTxId?: string }) => {
    if (!q.__knexTxId && !q.sql.startsWith("update webhook_outbox")) seen.push(q.sql);
  };
  db.on("query", listener);
  try {
    await run();
  } finally {
    db.removeListener("query", listener);
  }
  return seen;
}

for (const db of databases()) {
  describe(`attest API (${db.name})`, function () {
    this.timeout(90_000);
    let t: TestServer;
    let key: string;
    let pinned: VerifierKey;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "attest" })).key;
      pinned = parseVerifierKey(await (await t.fetch(`${t.url}/api/attest/key`)).text());
    });
    after(() => t?.stop());

    describe("getCheckpoint / getLogKey", () => {
      it("serves a text/plain checkpoint signed by the key it publishes", async () => {
        const response = await t.fetch(`${t.url}/api/attest/checkpoint`);
        assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
        const opened = openCheckpoint(await response.text(), pinned);
        assert.equal(opened.origin, "dispatch.example/audit");
      });
    });

    describe("verifySeal", () => {
      it("answers pending at once, then valid with a proof that verifies offline against the pinned key", async () => {
        // The sequencer is paused so that "at once" does not depend on the machine's speed (its batch is 1 s at most)
        const { auditLog } = t.app.services;
        await auditLog.stop();
        const failures: unknown[] = [];
        let quote: { seal: string };
        try {
          quote = (await (await post(t, "/api/dispatch/v1/quote", key, quoteRequest)).json()) as { seal: string };
          assert.match(quote.seal, /^seal_[0-9a-f]{64}$/);
          assert.equal((await verify(t, quote.seal)).status, "pending");
        } finally {
          auditLog.start((error) => failures.push(error));
        }
        await auditLog.flush();
        const result = await verify(t, quote.seal);
        assert.deepEqual([result.status, result.valid], ["valid", true]);
        const opened = verifySealProof(quote.seal, result, pinned);
        assert.equal(opened.treeSize, result.inclusion_proof!.tree_size);
        assert.deepEqual(failures, []);
      });

      it("reports a tampered record content_mismatch and gives no proof", async () => {
        const order = (await (await post(t, "/api/dispatch/v1/order", key, orderRequest)).json()) as {
          seal: string;
        };
        await t.app.services.auditLog.flush();
        await t.app.services.db.transaction(async (trx) => {
          await trx.raw("alter table audit_records disable trigger audit_records_no_change");
          await trx("audit_records").where({ seal: order.seal }).update({ content: '{"forged":true}' });
          await trx.raw("alter table audit_records enable trigger audit_records_no_change");
        });
        const result = await verify(t, order.seal);
        assert.deepEqual([result.status, result.valid, result.inclusion_proof], ["content_mismatch", false, undefined]);
      });
    });

    describe("getConsistencyProof", () => {
      it("proves an older checkpoint is a prefix of the newer one", async () => {
        const older = await checkpoint(t, pinned);
        for (let i = 0; i < 3; i++) await post(t, "/api/dispatch/v1/quote", key, quoteRequest);
        await t.app.services.auditLog.flush();
        const newer = await checkpoint(t, pinned);
        assert.ok(newer.treeSize > older.treeSize);
        const q = `first=${older.treeSize}&second=${newer.treeSize}`;
        const proof = (await (await t.fetch(`${t.url}/api/attest/consistency?${q}`)).json()) as { hashes: string[] };
        const hashes = proof.hashes.map((x) => Buffer.from(x, "base64"));
        assert.ok(verifyConsistency(older.treeSize, newer.treeSize, hashes, older.rootHash, newer.rootHash));
        assert.equal(verifyConsistency(older.treeSize, newer.treeSize, hashes, newer.rootHash, older.rootHash), false);
      });

      it("answers 400 for sizes beyond the log or out of order, 422 for non-numbers", async () => {
        const size = (await checkpoint(t, pinned)).treeSize;
        for (const q of [`first=1&second=${size + 1}`, `first=3&second=2`])
          assert.equal((await t.fetch(`${t.url}/api/attest/consistency?${q}`)).status, 400, q);
        assert.equal((await t.fetch(`${t.url}/api/attest/consistency?first=x&second=2`)).status, 422);
      });
    });

    describe("sequencer", () => {
      it("integrates a batch of many steps (700 records) into one tree: every sampled seal proves in, the tree grew consistently", async () => {
        await t.app.services.auditLog.flush();
        const before = await checkpoint(t, pinned);
        const rows = Array.from({ length: 700 }, (_, i) =>
          auditRow({
            type: "quote",
            tenant: { account: "attest", environment: "live" },
            subject: `qt_bulk_${i}`,
            content: { i },
          }),
        );
        await appendAuditRows(t.app.services.db, rows);
        await t.app.services.auditLog.flush();
        const after = await checkpoint(t, pinned);
        assert.equal(after.treeSize, before.treeSize + 700);
        for (const i of [0, 1, 255, 256, 257, 511, 512, 699]) {
          const result = await verify(t, rows[i].seal);
          assert.equal(result.status, "valid", `record ${i}`);
          assert.equal(result.leaf_index, before.treeSize + i);
          verifySealProof(rows[i].seal, result, pinned);
        }
        const q = `first=${before.treeSize}&second=${after.treeSize}`;
        const proof = (await (await t.fetch(`${t.url}/api/attest/consistency?${q}`)).json()) as { hashes: string[] };
        const hashes = proof.hashes.map((x) => Buffer.from(x, "base64"));
        assert.ok(verifyConsistency(before.treeSize, after.treeSize, hashes, before.rootHash, after.rootHash));
      });
    });

    describe("append-only tree", () => {
      it("refuses UPDATE, DELETE and TRUNCATE on leaves, nodes and checkpoints", async () => {
        const sql = t.app.services.db;
        for (const table of ["audit_leaves", "audit_nodes", "audit_checkpoints"]) {
          await assert.rejects(sql(table).delete(), /append-only/, table);
          await assert.rejects(sql.raw(`truncate ${table}`), /append-only/, table);
        }
        await assert.rejects(sql("audit_nodes").update({ hash: "0".repeat(64) }), /append-only/);
      });
    });

    describe("statements per call", () => {
      it("quotes that arrive together share statements (group commit), and every seal verifies", async () => {
        const answers: Response[] = [];
        const sql = await countStatements(t.app.services.db, async () => {
          answers.push(
            ...(await Promise.all(
              Array.from({ length: 40 }, () => post(t, "/api/dispatch/v1/quote", key, quoteRequest)),
            )),
          );
        });
        const seals = await Promise.all(answers.map(async (r) => ((await r.json()) as { seal: string }).seal));
        assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
        assert.equal(new Set(seals).size, 40);
        const inserts = sql.filter((s) => s.startsWith('with "quote" as (insert into "quotes"'));
        assert.ok(inserts.length >= 1 && inserts.length < 40, `${inserts.length} statements for 40 quotes`);
        await t.app.services.auditLog.flush();
        for (const seal of seals) {
          const result = await verify(t, seal);
          assert.equal(result.status, "valid", seal);
          verifySealProof(seal, result, pinned);
        }
      });

      it("a quote is one write (quote row and audit record together) after at most one bookings read; an order a replay look-up and one write after it", async () => {
        await post(t, "/api/dispatch/v1/quote", key, quoteRequest); // warms the key and pool caches
        const quote = withoutClockRead(
          await countStatements(t.app.services.db, () => post(t, "/api/dispatch/v1/quote", key, quoteRequest)),
        );
        // The bookings read is shared by the reads waiting together, and a quote may reuse one a moment old.
        const writes = quote.filter((sql) => !isBookingsRead(sql));
        assert.ok(quote.length - writes.length <= 1, quote.join("\n"));
        assert.equal(writes.length, 1, quote.join("\n"));
        assert.match(writes[0], /^with "quote" as \(insert into "quotes".*insert into "audit_records"/);
        const sent = withoutClockRead(
          await countStatements(t.app.services.db, () =>
            post(t, "/api/dispatch/v1/order", key, { ...orderRequest, reference_id: "stmt-count" }),
          ),
        );
        const order = sent.filter((sql) => !isBookingsRead(sql));
        assert.ok(sent.length - order.length <= 1, sent.join("\n"));
        assert.deepEqual(
          order.map((sql) => sql.split(" ").slice(0, 6).join(" ")),
          [
            'select "id", "request_hash", "response_status", "response_body", "reference_id"',
            'with "new_orders" as (insert into "orders"',
          ],
          order.join("\n"),
        );
        assert.match(order[1], /"new_events" as \(insert into "order_events".*insert into "audit_records"/);
        assert.match(order[1], /"new_bookings" as \(insert into "contractor_bookings"/);
      });

      it("an order of a quote costs one statement more: the quote look-up (and at most one bookings read)", async () => {
        const { quote_id } = (await (await post(t, "/api/dispatch/v1/quote", key, quoteRequest)).json()) as {
          quote_id: string;
        };
        const body = { ...orderRequest, reference_id: "stmt-count-quote", quote_id };
        const sent = withoutClockRead(
          await countStatements(t.app.services.db, () => post(t, "/api/dispatch/v1/order", key, body)),
        );
        const order = sent.filter((sql) => !isBookingsRead(sql));
        assert.ok(sent.length - order.length <= 1, sent.join("\n"));
        assert.deepEqual(
          order.map((sql) => sql.split(" ").slice(0, 3).join(" ")),
          ['select "id", "request_hash",', 'select "id", "trade",', 'with "new_orders" as'],
          order.join("\n"),
        );
        assert.match(order[1], /from "quotes" where "id" = \S+ and "account" = \S+ and "environment" = \S+ limit/);
      });
    });
  });
}
