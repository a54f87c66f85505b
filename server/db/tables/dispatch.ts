// Row types of the dispatch tables (contractors, quotes, orders; order_events is in events.ts), one field per column as the
// migrations define it, declared to Knex so `db("orders")` returns typed rows. jsonb columns read back as the
// object that was written and are written as JSON text; timestamptz reads back as a Date.
import type { Knex } from "knex";
import type { Schemas } from "../../types/contract.js";
import type { InsertOf } from "./writes.js";

type Environment = Schemas["ApiKeyEnvironment"];

export interface ContractorRow {
  id: string;
  ref: string;
  name: string;
  trades: Schemas["TradeCode"][];
  service_areas: Schemas["ServiceArea"][];
  hourly_rate_cents: number;
  base_response_minutes: number;
  emergency_capable: boolean;
  active: boolean;
  /** IANA zone of working_hours, as written (letter case corrected). */
  time_zone: string;
  /** All seven weekdays, local intervals in time_zone. */
  working_hours: Schemas["WorkingHours"];
  /** The contract's capacity, one column per figure (bounded by check constraints). */
  concurrent_jobs: number;
  jobs_per_day: number;
  /** The 5-digit ZIP its technicians set off from, in a state it serves (char(5), checked). */
  base_zip: string;
  created_at: Date;
}

/** A contractor as written: the jsonb columns as JSON text, defaults left to the database. */
export type ContractorWrite = Omit<
  Partial<ContractorRow>,
  "trades" | "service_areas" | "working_hours" | "emergency_capable" | "active" | "created_at"
> & {
  trades?: string;
  service_areas?: string;
  working_hours?: string;
  emergency_capable?: boolean;
  active?: boolean;
};

export interface QuoteRow {
  id: string;
  /** The key or OAuth client that asked. */
  principal: string;
  /** Null (with environment) for an OAuth client's quote: it cannot be ordered. */
  account: string | null;
  environment: Environment | null;
  trade: Schemas["TradeCode"];
  state: Schemas["UsState"];
  urgency: Schemas["Urgency"];
  available: boolean;
  estimated_cost_cents: number | null;
  /** The best match; null when no contractor covered the job. */
  contractor_id: string | null;
  /** Null on quotes older than ordering by quote_id. */
  expires_at: Date | null;
  matched_contractors: number;
  latency_ms: number;
  created_at: Date;
}

export interface OrderRow {
  id: string;
  account: string;
  environment: Environment;
  key_id: string;
  reference_id: string | null;
  quote_id: string | null;
  idempotency_key: string | null;
  request_hash: string;
  status: Schemas["OrderLifecycleStatus"];
  trade: Schemas["TradeCode"];
  state: Schemas["UsState"];
  location: Schemas["OrderLocation"];
  urgency: Schemas["Urgency"];
  description: string;
  nte_cents: number | null;
  quoted_cost_cents: number | null;
  contractor_id: string | null;
  /** A test order's scenario (SandboxScenario); null: happy_path. */
  sandbox_scenario?: Schemas["SandboxScenario"] | null;
  estimated_response_minutes: number | null;
  callback_url: string | null;
  final_cost_cents: number | null;
  dispatch_latency_ms: number | null;
  /** The first answer's status (201 assigned, 202 not), kept with its body for replays. */
  response_status: number;
  /** Text, not jsonb: a replay returns the first answer byte for byte. */
  response_body: string;
  created_at: Date;
  updated_at: Date;
  /** Null until cancelled. */
  cancellation: Schemas["Cancellation"] | null;
  /** Set together, once, when the order passed its fulfilment deadline unassigned (dispatcher/escalate.ts). */
  escalated_at: Date | null;
  escalation_reason: Schemas["Escalation"]["reason"] | null;
  escalation_deadline_at: Date | null;
  /** The ETA (orders/eta.ts): set together once a contractor is assigned, null before. */
  eta_at: Date | null;
  eta_updated_at: Date | null;
  eta_source: Schemas["Eta"]["source"] | null;
  /** The arrival window booked with the assignment (services/dispatch/bookings.ts); null before one. */
  arrival_window_start: Date | null;
  arrival_window_end: Date | null;
  /** The window is the customer's or the contractor's choice (requested, or moved by either): never re-planned. */
  window_fixed: boolean;
}

/** An assigned order's seats: its technician (`seat`, null once the job is done; its busy interval is held in
 * technician_slots by a trigger) and its day seat, in its environment's ledger (the order's environment). */
export interface ContractorBookingRow {
  order_id: string;
  environment: Environment;
  contractor_id: string;
  window_start: Date | string;
  window_end: Date | string;
  seat: number | null;
  /** YYYY-MM-DD on the contractor's clock. */
  local_day: string;
  day_seat: number;
  /** The promised arrival and the technician's busy interval (departure to the end of the work); null on bookings
   * written without them. */
  arrival_at: Date | string | null;
  busy_from: Date | string | null;
  busy_until: Date | string | null;
  /** The drive planned to the job, whole minutes (0 to 1440); null on bookings written before it was kept. */
  drive_minutes: number | null;
}

/** A 15-minute UTC slot of a technician's time held by a booking (written only by contractor_bookings' trigger). */
export interface TechnicianSlotRow {
  environment: Environment;
  contractor_id: string;
  technician: number;
  slot_start: Date | string;
  order_id: string;
}

/** An offer of an order's job to one contractor (services/dispatch/offers/): open (`offered`) until answered,
 * expired or withdrawn; at most one open per order. */
export interface OrderOfferRow {
  id: string;
  order_id: string;
  contractor_id: string;
  /** The order's tenant: offers are audited under it and listed in its environment only. */
  account: string;
  environment: Environment;
  status: Schemas["ContractorOfferStatus"];
  created_at: Date;
  deadline_at: Date;
  responded_at: Date | null;
  decline_reason: string | null;
  note: string | null;
  /** The terms the contractor was offered (null: an offer made before offers kept them). */
  quoted_cost_cents: number | null;
  nte_cents: number | null;
  arrival_window_start: Date | null;
  arrival_window_end: Date | null;
}

/** A sandbox account's frozen test clock (services/shared/test-clock.ts); no row: the wall clock. */
export interface SandboxClockRow {
  account: string;
  frozen_at: Date;
  updated_at: Date;
}

/** The claim of the one advance of an account's test clock under way (sandbox/clock-claim.ts). */
export interface SandboxClockAdvanceRow {
  account: string;
  claim: string;
  started_at: Date;
  renewed_at: Date;
}

/** A request to raise an order's NTE (services/dispatch/revisions/): pending until the customer answers; at most
 * one pending per order. */
export interface PriceRevisionRow {
  id: string;
  order_id: string;
  /** The order's tenant: revisions are audited under it. */
  account: string;
  environment: Environment;
  status: Schemas["PriceRevisionStatus"];
  requested_by: Schemas["PriceRevision"]["requested_by"];
  /** The contractor that asked (null when the service opened it). */
  contractor_id: string | null;
  amount_cents: number;
  reason: string;
  /** The order's NTE when asked. */
  nte_cents: number | null;
  created_at: Date;
  resolved_at: Date | null;
}

/** A change of an order: the cancellation (jsonb) as JSON text. */
export type OrderUpdate = Partial<Omit<OrderRow, "id" | "location" | "cancellation">> & { cancellation?: string };
/** New orders are written as JSON rows in one raw statement (orders/writer.ts), never through the builder; only
 * fixtures insert here, with the columns of whichever schema version they test. */
type OrderInsert = Record<string, unknown>;

/** order_events is declared with the event feed's tables (events.ts). */
export type { OrderEventRow } from "./events.js";

declare module "knex/types/tables.js" {
  interface Tables {
    contractors: Knex.CompositeTableType<ContractorRow, ContractorWrite, ContractorWrite>;
    quotes: QuoteRow;
    orders: Knex.CompositeTableType<OrderRow, OrderInsert, OrderUpdate>;
    contractor_bookings: ContractorBookingRow;
    technician_slots: TechnicianSlotRow;
    order_offers: Knex.CompositeTableType<
      OrderOfferRow,
      InsertOf<
        OrderOfferRow,
        | "responded_at"
        | "decline_reason"
        | "note"
        | "quoted_cost_cents"
        | "nte_cents"
        | "arrival_window_start"
        | "arrival_window_end"
      >,
      Partial<OrderOfferRow>
    >;
    sandbox_clocks: SandboxClockRow;
    sandbox_clock_advances: SandboxClockAdvanceRow;
    order_price_revisions: Knex.CompositeTableType<
      PriceRevisionRow,
      InsertOf<PriceRevisionRow, "resolved_at">,
      Partial<PriceRevisionRow>
    >;
  }
}
