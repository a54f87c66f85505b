// The customer's answer to a pending price revision: approve (the order's NTE becomes the amount, so the NTE rule,
// orders/nte-rule.ts, lets the contractor complete at up to it, and an order held over its NTE is no longer held:
// the dispatcher assigns it) or decline (the NTE stays). Under the order's row lock, then a conditional UPDATE of
// the revision while it is pending: of two approves, or an approve and a decline, exactly one changes the row and
// the other gets 409, across instances. The answer, its event (order.price_revision_resolved) with its webhook and
// its audit record commit together.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow, PriceRevisionRow } from "../../../db/tables/dispatch.js";
import type { Tenant } from "../../access/principal.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { nowDate } from "../../shared/clock.js";
import { writeOrderEvents } from "../orders/event-writes.js";
import { orderNotFound } from "../orders/errors.js";
import { isHeldOverNte, raiseNte } from "../orders/nte-rule.js";
import { statusView } from "../orders/view.js";
import { revisionAudit, revisionData } from "./records.js";

export type Answer = "approved" | "declined";

const revisionNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No price revision ${id} for this order.`);

const finished: readonly string[] = ["completed", "cancelled"];

const resolvedError = (revision: PriceRevisionRow) =>
  new DomainError(
    "conflict",
    "price_revision_resolved",
    `Price revision ${revision.id} is already ${revision.status}; it takes no other answer.`,
  );

/** Closes the revision while it is pending; else the 409 saying how it was answered. */
async function close(trx: Knex.Transaction, revision: PriceRevisionRow, status: Answer, now: Date) {
  const [closed] = await trx("order_price_revisions")
    .where({ id: revision.id, status: "pending" })
    .update({ status, resolved_at: now })
    .returning("*");
  if (closed) return closed;
  throw resolvedError((await trx("order_price_revisions").where({ id: revision.id }).first())!);
}

function assertOpenOrder(row: OrderRow): void {
  if (!finished.includes(row.status)) return;
  throw new DomainError(
    "conflict",
    "order_not_revisable",
    `Order ${row.id} is ${row.status}: its price can no longer be revised.`,
  );
}

/** One answer under the order's row lock; the order as it leaves it, and whether it was released from its hold. */
async function answerOnce(
  trx: Knex.Transaction,
  tenant: Tenant,
  ids: { id: string; revisionId: string; answer: Answer; base: string },
) {
  const { id, revisionId, answer, base } = ids;
  const row = await trx("orders")
    .where({ id, ...tenant })
    .forUpdate()
    .first();
  if (!row) throw orderNotFound(id);
  const revision = await trx("order_price_revisions").where({ id: revisionId, order_id: id }).first();
  if (!revision) throw revisionNotFound(revisionId);
  if (revision.status !== "pending") throw resolvedError(revision);
  assertOpenOrder(row);
  const now = nowDate();
  const closed = await close(trx, revision, answer, now);
  const updated: OrderRow =
    answer === "approved" ? { ...row, nte_cents: closed.amount_cents, updated_at: now } : { ...row };
  if (answer === "approved") await raiseNte(trx, id, closed.amount_cents, now);
  const event = { type: "order.price_revision_resolved" as const, data: revisionData(closed) };
  await writeOrderEvents(trx, updated, [event], { now, base });
  await appendAudit(trx, revisionAudit(closed, answer, { nte_cents_after: updated.nte_cents }));
  const released = isHeldOverNte(row) && !isHeldOverNte(updated) && row.status === "accepted_pending_fulfilment";
  return { view: await statusView(trx, updated, base), released };
}

/** approvePriceRevision / declinePriceRevision: 404 for another tenant's order or a revision of another order,
 * 409 price_revision_resolved / order_not_revisable. */
export function answerPriceRevision(
  db: Db,
  tenant: Tenant,
  request: { id: string; revisionId: string; answer: Answer; base: string },
) {
  return db.transaction((trx) => answerOnce(trx, tenant, request));
}
