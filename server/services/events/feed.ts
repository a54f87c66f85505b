// The event feed: order_events rows as DispatchEvent (`evt_<seq>`, sequencer.ts) per tenant or order; toEvent, the
// one renderer, reads the stored row alone (event-row.ts), so an event reads the same forever.
import type { Knex } from "knex";
import { maskRef } from "../shared/ids.js";
import { statusUrl } from "../shared/base-url.js";
import type { Schemas } from "../../types/contract.js";
import type { EventType } from "../../generated/events.js";
import { extrasOf, type FactData } from "./catalogue.js";
import { feedHead } from "./sequencer.js";
import type { FeedSource } from "./feed-source.js";

/** The columns feed queries select (bigints may arrive as strings over raw SQL). */
export interface EventRow {
  seq: number | string;
  order_id: string;
  type: EventType;
  data: FactData | null;
  status: Schemas["OrderLifecycleStatus"];
  at: Date | string;
  final_cost_cents: number | null;
  account: string;
  environment: "test" | "live";
  reference_id: string | null;
  contractor_id: string | null;
  quoted_cost_cents: number | null;
  previous_status: Schemas["OrderLifecycleStatus"] | null;
}
type Conn = Knex | Knex.Transaction;
export type DispatchEvent = Schemas["DispatchEvent"];
/** Whose events: always one tenant (account and environment); only the stream hub reads across tenants. */
export interface EventScope {
  account: string;
  environment: "test" | "live";
  orderId?: string;
}

export const eventId = (seq: number) => `evt_${seq}`;
export const seqOf = (id: string | undefined) => (id ? Number(/^evt_(\d{1,18})$/.exec(id)?.[1] ?? 0) : 0);

/** Sequenced rows after `afterSeq` in feed order, each with everything its event shows. */
function sequencedRows(db: Conn, afterSeq: number) {
  return db("order_events as e")
    .where("e.seq", ">", afterSeq)
    .orderBy("e.seq")
    .select<EventRow[]>(
      "e.seq",
      "e.order_id",
      "e.type",
      "e.data",
      "e.status",
      "e.previous_status",
      "e.at",
      "e.final_cost_cents",
      "e.account",
      "e.environment",
      "e.reference_id",
      "e.contractor_id",
      "e.quoted_cost_cents",
    );
}

/** One tenant's rows (the (account, environment, seq) index), optionally one order's, up to `uptoSeq`. */
export function tenantRows(db: Conn, afterSeq: number, scope: EventScope, uptoSeq?: number) {
  const query = sequencedRows(db, afterSeq).where({ "e.account": scope.account, "e.environment": scope.environment });
  if (scope.orderId) query.where("e.order_id", scope.orderId);
  if (uptoSeq !== undefined) query.where("e.seq", "<=", uptoSeq);
  return query;
}

/** One event by its row id (a webhook message's `event_id`), once it has its place in the feed. */
export async function eventRow(db: Conn, id: number): Promise<EventRow | undefined> {
  const [row] = await sequencedRows(db, 0).where("e.id", id);
  return row;
}

export const feedRows = (db: Conn, afterSeq: number) => sequencedRows(db, afterSeq);

/** The largest seq given so far (0 for an empty feed), whether or not its row still exists. */
export const latestSeq = (db: Conn): Promise<number> => feedHead(db);

/** One row as the event customers see: the feed item, the SSE `data:` and (byte for byte) the webhook body. */
export function toEvent(row: EventRow, base: string): DispatchEvent {
  const at = new Date(row.at).toISOString();
  return {
    id: eventId(Number(row.seq)),
    type: row.type,
    timestamp: at,
    data: {
      order_id: row.order_id,
      status: row.status,
      previous_status: row.previous_status ?? null,
      reference_id: row.reference_id ?? null,
      assigned_contractor_ref: row.contractor_id ? maskRef(row.contractor_id) : null,
      quoted_cost_cents: row.quoted_cost_cents ?? null,
      final_cost_cents: row.final_cost_cents ?? null,
      status_url: statusUrl(base, row.order_id),
      at,
      ...extrasOf(row.type, row.data),
    },
  };
}

/** listEvents / listOrderEvents as JSON. */
export async function eventPage(db: Conn, afterSeq: number, scope: EventScope, limit: number, base: string) {
  const items = (await tenantRows(db, afterSeq, scope).limit(limit)).map((row) => toEvent(row, base));
  return { items, next_after: items.at(-1)?.id ?? null };
}

/** The customers' feed as streams read it: a tenant's events, or one order's (whose stream replays its history). */
export const orderFeed: FeedSource<EventScope> = {
  rowsAfter: (db, afterSeq, limit) => feedRows(db, afterSeq).limit(limit),
  latestSeq,
  scoped: (scope) => ({
    rows: (db, afterSeq, uptoSeq, limit) => tenantRows(db, afterSeq, scope, uptoSeq).limit(limit),
    has: (row: EventRow) => {
      if (row.account !== scope.account || row.environment !== scope.environment) return false;
      return !scope.orderId || row.order_id === scope.orderId;
    },
    render: (row: EventRow, base: string) => toEvent(row, base),
    fromStart: Boolean(scope.orderId),
  }),
};
