// requestPriceRevision: the contractor holding a job asks the customer for more. Only its own accepted job (the
// order's contractor is the caller's, in the key's environment, and the order is dispatched, en_route or on_site)
// may be revised: another contractor's job, or the other environment's, is not found, as an offer is; an order
// offered but not accepted, or finished, is 409. The amount must be over what the order is committed to (its
// quoted cost and its NTE): a revision at or under them would lower or keep the NTE. Checked and written under the
// order's row lock, the lock every path that changes the order takes, so the one-pending rule is decided once per
// order (the partial UNIQUE index backs it should a path ever skip the lock).
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";
import type { RequestBody } from "../../../types/contract.js";
import { nowDate } from "../../shared/clock.js";
import { recordRequested, revisionRow, revisionView, type PriceRevisionView } from "./records.js";

export type PriceRevisionInput = RequestBody<"requestPriceRevision">;

/** The statuses of a job the contractor holds: accepted and not yet finished. */
const held: readonly string[] = ["dispatched", "en_route", "on_site"];

const jobNotFound = (id: string) => new DomainError("not_found", "not_found", `No job ${id} for this contractor.`);

function assertRevisable(row: OrderRow): void {
  if (held.includes(row.status)) return;
  const why =
    row.status === "pending_dispatch"
      ? "its offer is not accepted yet (accept it first)"
      : "it is finished or no longer this contractor's job";
  throw new DomainError(
    "conflict",
    "order_not_revisable",
    `Order ${row.id} is ${row.status}: ${why}; only a dispatched, en_route or on_site job can be revised.`,
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

/** 404 for another contractor's (or environment's) job, 409 order_not_revisable / price_revision_not_above /
 * price_revision_pending; the new pending revision. */
export async function requestPriceRevision(
  db: Db,
  caller: ContractorCaller,
  request: { id: string; input: PriceRevisionInput; base: string },
): Promise<PriceRevisionView> {
  const { id, input, base } = request;
  return db.transaction(async (trx) => {
    const row = await trx("orders")
      .where({ id, contractor_id: caller.contractorId, environment: caller.environment })
      .forUpdate()
      .first();
    if (!row) throw jobNotFound(id);
    assertRevisable(row);
    assertAbove(row, input.amount_cents);
    await assertNonePending(trx, id);
    const ask = { amountCents: input.amount_cents, reason: input.reason, contractorId: caller.contractorId };
    const revision = revisionRow(row, { ...ask, now: nowDate() });
    await recordRequested(trx, row, revision, base);
    return revisionView(revision);
  });
}
