// A row of the orders table (and of order_events) as Knex returns it: one field per column.
import type { Environment } from "../access/principal.js";
import type { Schemas } from "../../types/contract.js";

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
  /** jsonb: read back as the object that was written. */
  location: Schemas["OrderLocation"];
  urgency: Schemas["Urgency"];
  description: string;
  nte_cents: number | null;
  quoted_cost_cents: number | null;
  contractor_id: string | null;
  estimated_response_minutes: number | null;
  callback_url: string | null;
  final_cost_cents: number | null;
  dispatch_latency_ms: number | null;
  /** The first answer's status (201 assigned, 202 not), kept with its body for replays. */
  response_status: number;
  response_body: string;
  created_at: Date;
  updated_at: Date;
  /** jsonb, null until cancelled. */
  cancellation: Schemas["Cancellation"] | null;
}

export interface OrderEventRow {
  id: string | number;
  order_id: string;
  status: Schemas["OrderLifecycleStatus"];
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
  at: Date;
}
