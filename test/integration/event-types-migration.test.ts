// The event types migration on every test database: events stored before it get the type the read-time rule gave
// them (an order's first event order.created, a cancellation order.cancelled, any other order.status_changed), the
// per-type extras are bounded (a JSON object of at most 4 KiB), and down removes the fact rows (and their webhook
// messages) the earlier schema would read as status changes.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261127100000_contractor_availability";
const tenant = { account: "acme", environment: "test" } as const;

for (const target of databases()) {
  describe(`event types migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const rows = () => db<Record<string, unknown>>("order_events");
    const typesOf = async (orderId: string) =>
      (await db("order_events").where({ order_id: orderId }).orderBy("id")).map((r) => [r.status, r.type]);

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("orders").insert([
        storedOrder("ord_walk", { key_id: "key_1", ...tenant }),
        storedOrder("ord_gone", { key_id: "key_1", ...tenant, status: "cancelled" }),
      ]);
      // The table as it was before the migration (no type column), not today's typed row.
      for (const [order_id, status] of [
        ["ord_walk", "pending_dispatch"],
        ["ord_gone", "accepted_pending_fulfilment"],
        ["ord_walk", "dispatched"],
        ["ord_gone", "cancelled"],
        ["ord_walk", "en_route"],
      ])
        await rows().insert({ order_id, status, ...tenant });
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("types every stored event by the rule the feed applied", async () => {
      assert.deepEqual(await typesOf("ord_walk"), [
        ["pending_dispatch", "order.created"],
        ["dispatched", "order.status_changed"],
        ["en_route", "order.status_changed"],
      ]);
      assert.deepEqual(await typesOf("ord_gone"), [
        ["accepted_pending_fulfilment", "order.created"],
        ["cancelled", "order.cancelled"],
      ]);
      assert.equal((await db("order_events").whereNotNull("data")).length, 0);
    });

    const refused = [
      { what: "no type", fields: { type: null }, error: /null value|not-null/ },
      { what: "extras that are not an object", fields: { data: "[]" }, error: /order_events_data_shape/ },
      {
        what: "extras over 4 KiB",
        fields: { data: JSON.stringify({ note: "x".repeat(4100) }) },
        error: /order_events_data_shape/,
      },
      { what: "a type over 40 characters", fields: { type: `order.${"x".repeat(40)}` }, error: /too long/ },
    ];
    for (const { what, fields, error } of refused)
      it(`refuses to store ${what}`, async () => {
        const event = { order_id: "ord_walk", status: "en_route", type: "order.status_changed", ...tenant };
        await assert.rejects(rows().insert({ ...event, ...fields }), error);
      });

    it("rolls back without the fact rows and their messages, and forward again", async () => {
      const [fact] = await rows()
        .insert({
          order_id: "ord_walk",
          status: "en_route",
          type: "order.assigned",
          data: JSON.stringify({ reassigned: true }),
          ...tenant,
        })
        .returning("id");
      const status = await db("order_events").where({ order_id: "ord_walk", status: "en_route" }).first("id");
      const message = { order_id: "ord_walk", ...tenant, url: "http://x", status_base_url: "" };
      await db<Record<string, unknown>>("webhook_outbox").insert([
        { ...message, message_id: "msg_status", event_id: status!.id },
        { ...message, message_id: "msg_fact", event_id: fact.id },
      ]);
      await db.migrate.down({ migrationSource, name: "20261127110000_event_types" });
      assert.equal(await db.schema.hasColumn("order_events", "type"), false);
      assert.equal(await db.schema.hasColumn("order_events", "data"), false);
      assert.equal((await rows().where({ order_id: "ord_walk" })).length, 3);
      assert.deepEqual(
        (await db("webhook_outbox").orderBy("id")).map((m) => m.message_id),
        ["msg_status"],
      );
      await migrate(db);
      assert.deepEqual(await typesOf("ord_walk"), [
        ["pending_dispatch", "order.created"],
        ["dispatched", "order.status_changed"],
        ["en_route", "order.status_changed"],
      ]);
    });
  });
}
