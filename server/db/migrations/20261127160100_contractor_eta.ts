// The contractor's own ETA: the assigned contractor reporting `en_route` (services/dispatch/jobs/) estimates its
// arrival, source `contractor`. The source check lists what the server writes, so it widens with the new writer.
import type { Knex } from "knex";

const before = ["dispatch", "window", "operator", "sandbox"];
const sources = [...before, "contractor"];

async function checkSources(db: Knex, listed: readonly string[]): Promise<void> {
  const values = listed.map((source) => `'${source}'`).join(", "); // constants: DDL takes no bind parameters
  await db.raw("alter table orders drop constraint if exists orders_eta_source");
  await db.raw(`alter table orders add constraint orders_eta_source check (eta_source in (${values}))`);
}

export async function up(db: Knex): Promise<void> {
  await checkSources(db, sources);
}

export async function down(db: Knex): Promise<void> {
  await db("orders").where({ eta_source: "contractor" }).update({ eta_source: "operator" });
  await checkSources(db, before);
}
