// The order's ETA (services/dispatch/orders/eta.ts): when its contractor is expected on site, when that estimate
// was made and who made it, kept as three columns set together or not at all (a check), the source one of the
// values the server writes (a check: a later source is a later migration, as its code is a later change). Orders
// assigned before get the estimate their assignment made: the match's response minutes from the moment it was
// made (created_at plus the dispatch latency), source `dispatch`.
import type { Knex } from "knex";

const sources = ["dispatch", "window", "operator", "sandbox"];

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.timestamp("eta_at", { useTz: true });
    t.timestamp("eta_updated_at", { useTz: true });
    t.string("eta_source", 20);
  });
  await db.raw(`alter table orders add constraint orders_eta_whole check (
    (eta_at is null and eta_updated_at is null and eta_source is null)
    or (eta_at is not null and eta_updated_at is not null and eta_source is not null))`);
  const listed = sources.map((source) => `'${source}'`).join(", "); // constants: DDL takes no bind parameters
  await db.raw(`alter table orders add constraint orders_eta_source check (eta_source in (${listed}))`);
  await db.raw(`
    update orders
       set eta_updated_at = created_at + make_interval(secs => coalesce(dispatch_latency_ms, 0) / 1000.0),
           eta_at = created_at + make_interval(secs => coalesce(dispatch_latency_ms, 0) / 1000.0)
                    + make_interval(mins => estimated_response_minutes),
           eta_source = 'dispatch'
     where contractor_id is not null and estimated_response_minutes is not null`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("alter table orders drop constraint if exists orders_eta_source");
  await db.raw("alter table orders drop constraint if exists orders_eta_whole");
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("eta_source");
    t.dropColumn("eta_updated_at");
    t.dropColumn("eta_at");
  });
}
