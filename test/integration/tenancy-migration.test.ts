// Upgrading a database written before environments: orders, outbox rows, quotes and audit records take their key's
// environment, the secret that signed so far stays live's, and an old `order` key keeps every operation it had.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const lastBeforeTenancy = "20261124102000_webhook_deliveries";

async function seedOldWorld(db: Db): Promise<void> {
  const key = (id: string, environment: "test" | "live", scopes: string[]) => ({
    id,
    account: "acme",
    environment,
    prefix: `dispatch_${environment}_x`,
    key_hash: id.padEnd(64, "0"),
    scopes: JSON.stringify(scopes),
  });
  await db("api_keys").insert([key("key_t", "test", ["quote", "order"]), key("key_q", "live", ["quote"])]);
  const order = (id: string, keyId: string) => storedOrder(id, { key_id: keyId });
  await db("orders").insert([order("ord_t", "key_t"), order("ord_l", "key_q")]);
  // The tables as they were before the tenancy migration (no environment columns), not today's typed rows.
  await db<Record<string, unknown>>("webhook_secrets").insert({ account: "acme", secret: "whsec_old" });
  await db<Record<string, unknown>>("webhook_outbox").insert({
    message_id: "msg_1",
    order_id: "ord_t",
    account: "acme",
    url: "http://x",
    payload: "{}",
  });
  await db<Record<string, unknown>>("audit_records").insert({
    seal: "seal_x",
    prev_hash: "",
    type: "order",
    account: "acme",
    subject: "ord_t",
    content: "{}",
    recorded_at: new Date(),
  });
}

for (const target of databases()) {
  describe(`tenancy migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, lastBeforeTenancy);
      await seedOldWorld(db);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("gives rows their key's environment", async () => {
      const orders = await db("orders").orderBy("id").select("id", "environment");
      assert.deepEqual(orders, [
        { id: "ord_l", environment: "live" },
        { id: "ord_t", environment: "test" },
      ]);
      assert.equal((await db("webhook_outbox").first("environment"))?.environment, "test");
      assert.equal((await db("audit_records").where({ subject: "ord_t" }).first("environment"))?.environment, "test");
    });

    it("keeps the old signing secret for live, and test gets its own on first use", async () => {
      assert.deepEqual(await db("webhook_secrets").select("account", "environment", "secret"), [
        { account: "acme", environment: "live", secret: "whsec_old" },
      ]);
    });

    it("widens an old order key to the scopes that now name what it could do, and leaves a quote-only key", async () => {
      const scopes = Object.fromEntries(
        (await db("api_keys").select("id", "scopes")).map((k: { id: string; scopes: string[] }) => [k.id, k.scopes]),
      );
      assert.deepEqual(scopes.key_t, ["quote", "order", "orders:read", "webhooks", "audit"]);
      assert.deepEqual(scopes.key_q, ["quote"]);
    });

    it("keeps the audit trail append-only after the backfill", async () => {
      await assert.rejects(db("audit_records").update({ environment: "live" }), /append-only/);
    });
  });
}
