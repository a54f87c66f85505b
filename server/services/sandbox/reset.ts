// resetSandbox: empties one account's test environment and puts its test clock back on the wall clock; live data,
// other accounts and the audit log are untouched, and removed events' ids are never given again (events/sequencer.ts).
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import type { Tenant } from "../access/principal.js";
import { appendAudit } from "../audit/entries.js";
import type { Schemas } from "../../types/contract.js";
import { liveKey } from "../dispatch/orders/errors.js";
import { thawClock } from "./clock-freeze.js";

export type SandboxReset = Schemas["SandboxReset"];
type Removed = SandboxReset["removed"];

/** Rows a delete removed, by their ids (PGlite's driver answers no row count). */
const count = async (deleted: Knex.QueryBuilder) => (await deleted.delete().returning("id")).length;

/** Children before their orders (foreign keys); idempotency keys and reference ids live on the order rows. */
async function removeTestData(trx: Knex.Transaction, account: string): Promise<Removed> {
  const tenant = { account, environment: "test" as const };
  const orderIds = trx("orders").where(tenant).select("id");
  const webhook_deliveries = await count(trx("webhook_outbox").where(tenant));
  const events = await count(trx("order_events").whereIn("order_id", orderIds));
  const orders = await count(trx("orders").where(tenant));
  const quotes = await count(trx("quotes").where(tenant));
  return { orders, quotes, events, webhook_deliveries };
}

/** The append-only audit trail keeps its records of the removed data; the reset is one more record. */
export async function resetSandbox(db: Db, tenant: Tenant): Promise<SandboxReset> {
  if (tenant.environment !== "test")
    throw liveKey("Only a dispatch_test_ key can reset the sandbox; live data is never reset.");
  return db.transaction(async (trx) => {
    const removed = await removeTestData(trx, tenant.account);
    await thawClock(trx, tenant.account);
    await appendAudit(trx, { type: "sandbox_reset", tenant, subject: tenant.account, content: { removed } });
    const [{ kept }] = await trx("audit_records")
      .where({ account: tenant.account, environment: "test" })
      .count<{ kept: string | number }[]>({ kept: "*" });
    return { account: tenant.account, environment: "test", removed, audit_records_kept: Number(kept) };
  });
}
