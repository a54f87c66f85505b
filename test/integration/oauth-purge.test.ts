// Expired OAuth tokens and idle clients are purged: self-serve registrations do not pile up.
import assert from "node:assert/strict";
import { purgeOAuth } from "../../server/services/access/oauth.js";
import { oauthToken } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

for (const db of databases()) {
  describe(`oauth service (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
    });
    after(() => t?.stop());

    describe("purgeOAuth()", () => {
      it("deletes long-expired tokens and idle or expired clients, keeps active ones", async () => {
        const knex = t.app.services.db;
        const tokens = await Promise.all([oauthToken(t), oauthToken(t), oauthToken(t), oauthToken(t)]);
        const rows: { client_id: string }[] = await knex("oauth_tokens").select("client_id").orderBy("created_at");
        const [idle, active, fresh, expired] = await Promise.all(
          tokens.map(async (token) => (await t.app.services.oauth.verifyToken(token))!.clientId),
        );
        assert.equal(rows.length, 4);
        await knex("oauth_clients")
          .whereIn("client_id", [idle, active])
          .update({ created_at: daysAgo(40) });
        await knex("oauth_tokens")
          .where({ client_id: idle })
          .update({ expires_at: daysAgo(31) });
        await knex("oauth_tokens").insert({
          token_hash: "0".repeat(64),
          client_id: active,
          scope: "dispatch.quote",
          expires_at: daysAgo(35),
        });
        await knex("oauth_clients")
          .where({ client_id: expired })
          .update({ expires_at: daysAgo(1) });

        const purged = await purgeOAuth(knex);
        assert.deepEqual(purged, { tokens: 2, clients: 2 });
        const left: { client_id: string }[] = await knex("oauth_clients").select("client_id");
        assert.deepEqual(left.map((c) => c.client_id).sort(), [active, fresh].sort());
        assert.equal((await knex("oauth_tokens").whereIn("client_id", [idle, expired])).length, 0);
        assert.ok(await t.app.services.oauth.verifyToken(tokens[1]), "the active client's live token still works");
      });
    });
  });
}
