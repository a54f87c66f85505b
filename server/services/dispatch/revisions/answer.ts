// The customer's answer to a pending price revision: approve (the NTE becomes the amount, releasing a held
// order) or decline, exactly once under the order's row lock (docs/decisions.md#the-contractor-side-modules).
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
import { revisionAudit, revisionData, withdrawPendingRevision, type Withdrawal } from "../orders/revision-records.js";
import { isFinal, isUnderWay } from "../orders/state.js";

export type Answer = "approved" | "declined";

const revisionNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No price revision ${id} for this order.`);

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

const notRevisable = (row: OrderRow) =>
  new DomainError(
    "conflict",
    "order_not_revisable",
    `Order ${row.id} is ${row.status}: its price can no longer be revised.`,
  );

/** Why a pending revision can no longer be answered (its order ended, or its contractor no longer holds the job). */
function outlivedBy(row: OrderRow, revision: PriceRevisionRow): Withdrawal | null {
  if (isFinal(row.status)) return { orderEnded: row.status };
  const asker = revision.contractor_id;
  return asker && (row.contractor_id !== asker || !isUnderWay(row.status)) ? { contractorLeft: asker } : null;
}

/** One answer under the order's row lock; or the 409 once a revision that outlived its holder is withdrawn. */
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
  const now = nowDate();
  const outlived = outlivedBy(row, revision);
  if (outlived) {
    await withdrawPendingRevision(trx, row, outlived, { now, base });
    return {
      refused: "orderEnded" in outlived ? notRevisable(row) : resolvedError({ ...revision, status: "withdrawn" }),
    };
  }
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

/** approvePriceRevision / declinePriceRevision: 404 for another tenant's, 409 resolved / not revisable. */
export async function answerPriceRevision(
  db: Db,
  tenant: Tenant,
  request: { id: string; revisionId: string; answer: Answer; base: string },
) {
  const answered = await db.transaction((trx) => answerOnce(trx, tenant, request));
  if (answered.refused) throw answered.refused; // the withdrawal committed
  return answered;
}
