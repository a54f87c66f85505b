// Rows of order_events: every status an order passes through and the facts of each change (services/events/
// catalogue.ts), written once with its order's tenant and with what the order showed at that change
// (services/events/event-row.ts), never changed after. The feed sequencer gives each a `seq` after commit; until
// then it is null and the event is not in the feed.
import type { Schemas } from "../../types/contract.js";
import type { EventType } from "../../generated/events.js";
import type { InsertOf, TableOf } from "./writes.js";

/** A fact's per-type extras beyond the common event data (written and read by services/events/catalogue.ts). */
export interface FactData {
  /** order.assigned: the order had another contractor before. */
  reassigned?: boolean;
  /** order.escalated: why, when and the deadline it passed, and who handles it (as the order keeps them). */
  escalation?: Schemas["Escalation"];
  /** order.assigned and order.eta_updated: the estimate as the change left it. */
  eta?: Schemas["Eta"];
  /** order.rescheduled: the window the order moved to and the one it left (absent when it had none). order.assigned
   * and order.eta_updated: the booked window as the change left it (null: none; absent on rows written before). */
  arrival_window?: Schemas["ArrivalWindow"] | null;
  previous_arrival_window?: Schemas["ArrivalWindow"];
  /** order.rescheduled: who moved it (absent on moves recorded before it was kept). */
  rescheduled_by?: Schemas["OrderEventData"]["rescheduled_by"];
  /** order.price_revision_requested and order.price_revision_resolved: the revision as the change left it. */
  price_revision?: Schemas["PriceRevision"];
}

export interface OrderEventRow {
  id: number;
  order_id: string;
  /** The catalogue type: a status event, or a fact following the status event of its change. */
  type: EventType;
  status: Schemas["OrderLifecycleStatus"];
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
  at: Date;
  seq: number | null;
  account: string;
  environment: Schemas["ApiKeyEnvironment"];
  /** A fact's per-type extras (a JSON object of at most 4 KiB); null for status events. */
  data: FactData | null;
  /** The order's status before the change this event belongs to (null for its first). */
  previous_status: Schemas["OrderLifecycleStatus"] | null;
  /** The order's reference id, contractor and quoted cost as the change left them (contractor and cost null while
   * the order waits for a contractor). */
  reference_id: string | null;
  contractor_id: string | null;
  quoted_cost_cents: number | null;
}
/** An event as inserted: `at` as a date or ISO text, `data` (jsonb) as JSON text. What the event shows of its
 * order (previous_status, reference_id, contractor_id, quoted_cost_cents) is always given: it is never read later. */
type OrderEventInsert = InsertOf<
  Omit<OrderEventRow, "at" | "data"> & { at: Date | string; data: string | null },
  "id" | "note" | "human_override" | "final_cost_cents" | "at" | "seq" | "data"
>;

declare module "knex/types/tables.js" {
  interface Tables {
    order_events: TableOf<OrderEventRow, OrderEventInsert>;
  }
}
