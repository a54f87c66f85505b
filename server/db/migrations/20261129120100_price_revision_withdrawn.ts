// A pending price revision can end unanswered: `withdrawn` when the contractor that asked stops holding the job or
// the order ends first (orders/revision-records.ts), resolved like an answer (resolved_at set). Rolling back turns
// withdrawn revisions into declined ones, the answer that leaves the NTE as a withdrawal leaves it.
import type { Knex } from "knex";

const statusCheck = (statuses: string[]) =>
  `alter table order_price_revisions drop constraint order_price_revisions_status,
     add constraint order_price_revisions_status check (status in (${statuses.map((s) => `'${s}'`).join(", ")}))`;

export async function up(db: Knex): Promise<void> {
  await db.raw(statusCheck(["pending", "approved", "declined", "withdrawn"]));
}

export async function down(db: Knex): Promise<void> {
  await db.raw("update order_price_revisions set status = 'declined' where status = 'withdrawn'");
  await db.raw(statusCheck(["pending", "approved", "declined"]));
}
