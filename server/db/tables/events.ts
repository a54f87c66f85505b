// Rows of order_events: every status an order passes through, written with its order's tenant. The feed sequencer
// gives each a `seq` after commit; until then it is null and the event is not in the feed.
import type { Schemas } from "../../types/contract.js";
import type { InsertOf, TableOf } from "./writes.js";

export interface OrderEventRow {
  id: number;
  order_id: string;
  status: Schemas["OrderLifecycleStatus"];
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
  at: Date;
  seq: number | null;
  account: string;
  environment: Schemas["ApiKeyEnvironment"];
}
type OrderEventInsert = InsertOf<
  Omit<OrderEventRow, "at"> & { at: Date | string },
  "id" | "note" | "human_override" | "final_cost_cents" | "at" | "seq"
>;

declare module "knex/types/tables.js" {
  interface Tables {
    order_events: TableOf<OrderEventRow, OrderEventInsert>;
  }
}
