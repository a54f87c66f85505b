// Two servers on one Postgres: the key and contractor-pool caches of one are dropped when the other changes the
// data (Postgres LISTEN/NOTIFY), so a revoked key is refused everywhere within a second.
import assert from "node:assert/strict";
import { quoteRequest } from "../fixtures/requests.js";
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
