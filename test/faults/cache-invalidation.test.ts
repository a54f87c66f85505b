// Two servers on one Postgres: the key, contractor-pool and sandbox-clock caches of one are dropped when the other
// changes the data (Postgres LISTEN/NOTIFY), so a revoked key is refused everywhere within a second, and a test key's
// requests run on the instant its last advance or reset left on every instance.
import assert from "node:assert/strict";
import type { Knex } from "knex";
import { now } from "../../server/services/shared/clock.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import {
  adminToken,
  postgresDatabase,
  startTestServer,
  type TestServer,
  type ServerTarget,
} from "../helpers/server.js";

const quote = ({ url, fetch }: ServerTarget, key: string) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(quoteRequest),
  });

const post = ({ url, fetch }: ServerTarget, path: string, key: string, body: unknown) =>
  fetch(`${url}/api/dispatch/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
  });

/** The reads of sandbox_clocks `run` sends on `db` (knex's 'query' event: one per round trip). */
async function clockReads(db: Knex, run: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const listener = (q: { sql: string }) => {
    if (q.sql.includes('from "sandbox_clocks"')) reads++;
  };
  db.on("query", listener);
  try {
    await run();
  } finally {
    db.removeListener("query", listener);
  }
  return reads;
}

/** Polls `check` up to 20 times 50 ms apart (a 1 s bound, counted rather than timed). */
async function within1s(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe("cache invalidation across servers", function () {
  this.timeout(90_000);
  const pgDb = postgresDatabase();
  let a: TestServer;
  let b: TestServer;
  before(async function () {
    if (!pgDb) this.skip();
    a = await startTestServer(pgDb, {}, { inject: true });
    b = await startTestServer(pgDb, { DATABASE_URL: a.databaseUrl }, { inject: true });
  });
  after(async () => {
    await b?.app.stop();
    await a?.stop();
  });

  describe("revoke()", () => {
    it("refuses a key on the other server within 1 s of its revocation, though that server had it cached", async () => {
      const issued = await a.issueKey({ account: "cache" });
      assert.equal((await quote(b, issued.key)).status, 200); // B caches the key
      assert.equal((await quote(b, issued.key)).status, 200);
      const revoked = await a.fetch(`${a.url}/api/admin/v1/keys/${issued.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.equal(revoked.status, 200);
      assert.ok(await within1s(async () => (await quote(b, issued.key)).status === 401));
    });
  });

  describe("sandbox clock", () => {
    let serial = 0;
    /** The instant an order `key` creates on `server` is stamped with (its created_at), ms. */
    const stampOn = async (server: TestServer, key: string) => {
      const created = await post(server, "/order", key, { ...orderRequest, reference_id: `clock-${++serial}` });
      const text = await created.text();
      assert.ok([201, 202].includes(created.status), text);
      const { order } = JSON.parse(text) as { order: { id: string } };
      const row = await a.app.services.db("orders").where({ id: order.id }).first();
      return new Date(row!.created_at).getTime();
    };
    const advance = async (key: string, by: string) => {
      const advanced = await post(a, "/sandbox/clock/advance", key, { by });
      const text = await advanced.text();
      assert.equal(advanced.status, 200, text);
      return Date.parse((JSON.parse(text) as { now: string }).now);
    };

    it("answers a test key's clock from the cache, and drops it on the other server within 1 s of an advance or a reset", async () => {
      const { key } = await a.issueKey({ account: "clock-cache", environment: "test" });
      const frozen = await advance(key, "0s");
      assert.equal(await stampOn(b, key), frozen);
      // B holds the frozen instant: its next request reads no clock row
      assert.equal(await clockReads(b.app.services.db, () => stampOn(b, key)), 0);
      const moved = await advance(key, "PT1H"); // an hour ahead of the wall clock
      assert.ok(await within1s(async () => (await stampOn(b, key)) === moved));
      assert.equal(await clockReads(b.app.services.db, () => stampOn(b, key)), 0, "B holds the moved instant");
      const reset = await post(a, "/sandbox/reset", key, {});
      assert.equal(reset.status, 200, await reset.text());
      assert.ok(await within1s(async () => Math.abs((await stampOn(b, key)) - now()) < 60_000)); // business time again
    });
  });

  describe("contractor pool", () => {
    it("sees a contractor deactivated on the other server within 1 s", async () => {
      const { key } = await a.issueKey({ account: "pool" });
      const before = (await (await quote(b, key)).json()) as { availability: { matched_contractors: number } };
      assert.ok(before.availability.matched_contractors > 0);
      const contractors = (await a.app.services.contractors.candidates("plumbing", quoteRequest.location.state)).map(
        (c) => c.id,
      );
      for (const id of contractors) await a.app.services.contractors.update(id, { active: false });
      assert.ok(
        await within1s(async () => {
          const body = (await (await quote(b, key)).json()) as { availability?: { matched_contractors: number } };
          return body.availability?.matched_contractors === 0;
        }),
      );
    });
  });
});
