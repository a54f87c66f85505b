// requestPriceRevision: the contractor holding a job that is under way asks for more than the order is committed
// to; one pending revision per order, decided under the order's row lock.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";
import type { RequestBody } from "../../../types/contract.js";
import { nowDate } from "../../shared/clock.js";
import { isUnderWay, underWayStatuses } from "../orders/state.js";
import { jobNotFound, lockJob, type LockedJob } from "../orders/held-job.js";
import { recordRequested, revisionRow, revisionView, type PriceRevisionView } from "../orders/revision-records.js";

export type PriceRevisionInput = RequestBody<"requestPriceRevision">;

/** 409 unless the caller holds the job and it is under way. */
function assertRevisable({ row, offer }: LockedJob): void {
  if (offer && isUnderWay(row.status)) return;
  const why =
    row.status === "pending_dispatch"
      ? "its offer is not accepted yet (accept it first)"
      : "it is finished or no longer this contractor's job";
  throw new DomainError(
    "conflict",
    "order_not_revisable",
    `Order ${row.id} is ${row.status}: ${why}; only a ${underWayStatuses.join(", ").replace(/, (?=[^,]*$)/, " or ")} job can be revised.`,
  );
}

/** 409 unless the amount is over the order's quoted cost and its NTE. */
function assertAbove(row: OrderRow, amountCents: number): void {
  const floor = Math.max(row.quoted_cost_cents ?? 0, row.nte_cents ?? 0);
  if (amountCents > floor) return;
  throw new DomainError(
    "conflict",
    "price_revision_not_above",
    `Order ${row.id}: ${amountCents} cents is not over its quoted cost (${row.quoted_cost_cents ?? "none"}) and not-to-exceed (${row.nte_cents ?? "none"}); the job already fits.`,
  );
}

async function assertNonePending(trx: Knex.Transaction, id: string): Promise<void> {
  const pending = await trx("order_price_revisions").where({ order_id: id, status: "pending" }).first("id");
  if (pending)
    throw new DomainError(
      "conflict",
      "price_revision_pending",
      `Order ${id} already has a pending price revision (${pending.id}); wait for the customer's answer.`,
    );
}

/** 404 for another contractor's job, 409 order_not_revisable / not_above / pending; the new pending revision. */
export async function requestPriceRevision(
  db: Db,
  caller: ContractorCaller,
  request: { id: string; input: PriceRevisionInput; base: string },
): Promise<PriceRevisionView> {
  const { id, input, base } = request;
  return db.transaction(async (trx) => {
    const job = await lockJob(trx, caller, id);
    if (!job) throw jobNotFound(id);
    assertRevisable(job);
    const { row } = job;
    assertAbove(row, input.amount_cents);
    await assertNonePending(trx, id);
    const ask = { amountCents: input.amount_cents, reason: input.reason, contractorId: caller.contractorId };
    const revision = revisionRow(row, { ...ask, now: nowDate() });
    await recordRequested(trx, row, revision, base);
    return revisionView(revision);
  });
}
