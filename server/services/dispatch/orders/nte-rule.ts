// The one not-to-exceed rule: no path dispatches an order whose expected cost is over its NTE or completes one whose
// final cost is, except an operator's explicit override with a reason, kept as a human override.
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import type { Match } from "../matching.js";
import { isOverNte } from "../nte.js";
import { invalidField } from "./errors.js";
import type { OrderEventInput } from "./event-input.js";
import { committedBy } from "./state.js";

/** An operator's step above the NTE, as the audit log keeps it. */
export interface NteOverride {
  nte_cents: number;
  cost_cents: number;
  reason: string;
}

type NteRow = Pick<OrderRow, "id" | "nte_cents" | "quoted_cost_cents">;

/** The cost a step commits the order to (the match's price when it assigns), or null for steps that commit none. */
function committedCost(row: NteRow, input: OrderEventInput, match: Match | null) {
  const commits = committedBy(input.status);
  if (commits === "final_cost") return { what: "the final cost", cents: input.final_cost_cents ?? null };
  if (commits === "expected_cost")
    return { what: "the expected cost", cents: match?.costCents ?? row.quoted_cost_cents };
  return { what: "", cents: null };
}

/** 422 for an override without its reason or a reason without the override. */
export function assertOverrideShape(input: OrderEventInput): void {
  if (input.nte_override && !input.override_reason)
    throw invalidField("/override_reason", '"override_reason" is required with "nte_override": true.');
  if (input.override_reason && !input.nte_override)
    throw invalidField("/override_reason", '"override_reason" only applies with "nte_override": true.');
}

/** Null when the step stays within the NTE; the override when an operator went above it; else 409 over_nte. */
export function checkNte(row: NteRow, input: OrderEventInput, match: Match | null): NteOverride | null {
  const cost = committedCost(row, input, match);
  if (!isOverNte(row.nte_cents, cost.cents)) return null;
  const over = { nte_cents: row.nte_cents!, cost_cents: cost.cents! };
  if (input.nte_override && input.override_reason) return { ...over, reason: input.override_reason };
  throw new DomainError(
    "conflict",
    "over_nte",
    `Order ${row.id}: ${cost.what} of ${over.cost_cents} cents is over its not-to-exceed of ${over.nte_cents} cents; only an operator override (nte_override: true with an override_reason) goes above it.`,
  );
}

/** An approved price revision's amount becomes the order's NTE (inside the approval's transaction, row locked). */
export async function raiseNte(trx: Knex.Transaction, id: string, nteCents: number, now: Date): Promise<void> {
  await trx("orders").where({ id }).update({ nte_cents: nteCents, updated_at: now });
}

export const isOverNteError = (error: unknown) => error instanceof DomainError && error.code === "over_nte";

/** An order priced over its NTE: nothing automatic moves it (the sandbox follows the live rule). */
export const isHeldOverNte = (row: NteRow) => isOverNte(row.nte_cents, row.quoted_cost_cents);

export function heldOverNte(query: Knex.QueryBuilder): void {
  void query
    .whereNotNull("orders.nte_cents")
    .whereNotNull("orders.quoted_cost_cents")
    .whereRaw("orders.quoted_cost_cents > orders.nte_cents");
}
