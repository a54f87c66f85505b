// The one writer of a status move: checked against the status machine (state.ts), then the order's columns, status
// event, facts and `order_status` audit record, in the caller's transaction under the row lock.
import type { Knex } from "knex";
import type { OrderRow, OrderUpdate } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { eventTypeOf } from "../../events/catalogue.js";
import type { Schemas } from "../../../types/contract.js";
import { writeOrderEvents, type EventWrite } from "./event-writes.js";
import { moveTarget, type MoveKind, type OrderLifecycleStatus } from "./state.js";

/** What the status event and its audit record keep. */
export interface MoveRecord {
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
}

export interface StatusMove {
  kind: MoveKind;
  to: OrderLifecycleStatus;
  /** The other columns the move writes (its `status` and `updated_at` are set here). */
  update?: OrderUpdate;
  record: MoveRecord;
  cancellation?: Schemas["Cancellation"] | null;
  /** The events after the status event (facts, an assignment) of the order as the move leaves it, in feed order. */
  then?: (updated: OrderRow) => EventWrite[];
  /** More of the audit record (an NTE override). */
  audit?: Record<string, unknown>;
  now: Date;
  base: string;
}

/** Writes the move; the order as it leaves it. A move the machine does not have is a bug in the caller. */
export async function moveStatus(trx: Knex.Transaction, row: OrderRow, move: StatusMove): Promise<OrderRow> {
  if (moveTarget(row.status, move.kind) !== move.to)
    throw new Error(`order ${row.id}: no ${move.kind} move from ${row.status} to ${move.to}`);
  const { cancellation } = move;
  const update: OrderUpdate = {
    ...move.update,
    status: move.to,
    updated_at: move.now,
    ...(cancellation ? { cancellation: JSON.stringify(cancellation) } : {}),
  };
  await trx("orders").where({ id: row.id }).update(update);
  const updated: OrderRow = { ...row, ...update, cancellation: cancellation ?? row.cancellation };
  const events = [{ ...move.record, type: eventTypeOf(move.to, row.status) }, ...(move.then?.(updated) ?? [])];
  await writeOrderEvents(trx, updated, events, { now: move.now, base: move.base, movedFrom: row.status });
  const tenant = { account: row.account, environment: row.environment };
  const content = {
    from: row.status,
    to: move.to,
    ...move.record,
    ...(cancellation ? { cancellation } : {}),
    ...move.audit,
  };
  await appendAudit(trx, { type: "order_status", tenant, subject: row.id, content });
  return updated;
}
