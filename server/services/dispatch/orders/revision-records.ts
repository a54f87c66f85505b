// A price revision's rows: the revision, its events and its audit steps under the order's tenant. A pending revision
// is withdrawn when its contractor gives the job back or the order ends; one is opened for an order held over its NTE.
import type { Knex } from "knex";
import type { OrderRow, PriceRevisionRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { appendAudit, type AuditEntry } from "../../audit/entries.js";
import { newId } from "../../shared/ids.js";
import { writeOrderEvents } from "./event-writes.js";

export type PriceRevisionView = Schemas["PriceRevision"];
type Conn = Knex | Knex.Transaction;
type OrderKeys = Pick<OrderRow, "id" | "account" | "environment" | "nte_cents">;

const iso = (at: Date | string) => new Date(at).toISOString();

export const revisionView = (row: PriceRevisionRow): PriceRevisionView => ({
  id: row.id,
  order_id: row.order_id,
  status: row.status,
  requested_by: row.requested_by,
  amount_cents: row.amount_cents,
  reason: row.reason,
  nte_cents: row.nte_cents ?? null,
  created_at: iso(row.created_at),
  resolved_at: row.resolved_at ? iso(row.resolved_at) : null,
});

/** A new pending revision of the order (its NTE as it stands). */
export function revisionRow(
  order: OrderKeys,
  ask: { amountCents: number; reason: string; contractorId: string | null; now: Date },
): PriceRevisionRow {
  return {
    id: newId("prv"),
    order_id: order.id,
    account: order.account,
    environment: order.environment,
    status: "pending",
    requested_by: ask.contractorId ? "contractor" : "dispatch",
    contractor_id: ask.contractorId,
    amount_cents: ask.amountCents,
    reason: ask.reason,
    nte_cents: order.nte_cents ?? null,
    created_at: ask.now,
    resolved_at: null,
  };
}

export const heldReason = (costCents: number, nteCents: number) =>
  `The best price (${costCents} cents) is over the not-to-exceed of ${nteCents} cents; approve it to dispatch the order.`;

/** The pending revision of an order held over its NTE at `costCents`. */
export const heldRevisionOf = (order: OrderKeys & { nte_cents: number }, costCents: number, now: Date) =>
  revisionRow(order, {
    amountCents: costCents,
    reason: heldReason(costCents, order.nte_cents),
    contractorId: null,
    now,
  });

type Step = "requested" | "approved" | "declined" | "withdrawn";

/** The audit entry of one step of a revision's life, under the order's tenant, about the order. */
export function revisionAudit(revision: PriceRevisionRow, step: Step, extra: Record<string, unknown> = {}): AuditEntry {
  return {
    type: "price_revision",
    tenant: { account: revision.account, environment: revision.environment },
    subject: revision.order_id,
    content: {
      revision_id: revision.id,
      step,
      requested_by: revision.requested_by,
      ...(revision.contractor_id ? { contractor_id: revision.contractor_id } : {}),
      amount_cents: revision.amount_cents,
      nte_cents: revision.nte_cents,
      ...(step === "requested" ? { reason: revision.reason } : {}),
      ...extra,
    },
  };
}

export const revisionData = (revision: PriceRevisionRow) => ({ price_revision: revisionView(revision) });

/** Records a new pending revision inside the caller's transaction: the row, its event, webhook and audit record. */
export async function recordRequested(
  trx: Knex.Transaction,
  order: OrderRow,
  revision: PriceRevisionRow,
  base: string,
): Promise<void> {
  await trx("order_price_revisions").insert(revision);
  const event = { type: "order.price_revision_requested" as const, data: revisionData(revision) };
  await writeOrderEvents(trx, order, [event], { now: new Date(revision.created_at), base });
  await appendAudit(trx, revisionAudit(revision, "requested"));
}

/** The pending revision asking to approve the price the order was just held at; none when one is pending already. */
export async function openHeldRevision(
  trx: Knex.Transaction,
  held: OrderRow & { nte_cents: number; quoted_cost_cents: number },
  at: { now: Date; base: string },
): Promise<void> {
  const pending = await trx("order_price_revisions").where({ order_id: held.id, status: "pending" }).first("id");
  if (pending) return;
  await recordRequested(trx, held, heldRevisionOf(held, held.quoted_cost_cents, at.now), at.base);
}

/** Why a pending revision ends unanswered: its contractor stopped holding the job, or the order ended. */
export type Withdrawal = { contractorLeft: string } | { orderEnded: OrderRow["status"] };

/** Withdraws the order's pending revision (the leaving contractor's, or any when the order ended). */
export async function withdrawPendingRevision(
  trx: Knex.Transaction,
  order: OrderRow,
  why: Withdrawal,
  at: { now: Date; base: string },
): Promise<void> {
  const [withdrawn] = await trx("order_price_revisions")
    .where({ order_id: order.id, status: "pending" })
    .modify((query) => {
      if ("contractorLeft" in why) void query.where({ contractor_id: why.contractorLeft });
    })
    .update({ status: "withdrawn", resolved_at: at.now })
    .returning<PriceRevisionRow[]>("*");
  if (!withdrawn) return;
  const event = { type: "order.price_revision_resolved" as const, data: revisionData(withdrawn) };
  await writeOrderEvents(trx, order, [event], at);
  const reason = "contractorLeft" in why ? "contractor_left" : `order_${why.orderEnded}`;
  await appendAudit(trx, revisionAudit(withdrawn, "withdrawn", { reason }));
}

/** The last revision each contractor asked of each order, by `order_id|contractor_id`. */
export async function contractorRevisions(db: Conn, orderIds: string[]): Promise<Map<string, PriceRevisionView>> {
  if (!orderIds.length) return new Map();
  const rows = await db("order_price_revisions")
    .whereIn("order_id", orderIds)
    .where({ requested_by: "contractor" })
    .orderBy([
      { column: "created_at", order: "asc" },
      { column: "id", order: "asc" },
    ]);
  return new Map(rows.map((row) => [`${row.order_id}|${row.contractor_id}`, revisionView(row)])); // later win
}

/** The latest revision of each order (pending, or the last answered), by order id. */
export async function latestRevisions(db: Conn, orderIds: string[]): Promise<Map<string, PriceRevisionView>> {
  if (!orderIds.length) return new Map();
  const rows = await db("order_price_revisions")
    .whereIn("order_id", orderIds)
    .orderBy([
      { column: "created_at", order: "asc" },
      { column: "id", order: "asc" },
    ]);
  return new Map(rows.map((row) => [row.order_id, revisionView(row)])); // later rows overwrite earlier ones
}
