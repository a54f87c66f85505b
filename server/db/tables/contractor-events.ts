// Rows of contractor_events: the contractor feed (services/contractor-feed), one row per event of one contractor's
// offer or job, written once with what that contractor may see in `data`, never changed after but for the feed
// sequencer's `seq` (null until it numbers the committed row).
import type { Schemas } from "../../types/contract.js";
import type { InsertOf, TableOf } from "./writes.js";

export type ContractorEventType = Schemas["ContractorEventType"];
/** What a type adds to the event's common fields (order_id, offer_id, at), as the contractor sees it. */
export type ContractorEventExtras = Omit<Schemas["ContractorEventData"], "order_id" | "offer_id" | "at">;

export interface ContractorEventRow {
  id: number;
  seq: number | null;
  contractor_id: string;
  environment: Schemas["ApiKeyEnvironment"];
  /** The order's tenant, for operators; the contractor's feed never shows it. */
  account: string;
  order_id: string;
  offer_id: string;
  type: ContractorEventType;
  at: Date;
  data: ContractorEventExtras;
}
/** As inserted: `data` as JSON text (jsonb), `at` as a date or ISO text. */
type ContractorEventInsert = InsertOf<
  Omit<ContractorEventRow, "at" | "data"> & { at: Date | string; data: string },
  "id" | "seq"
>;

declare module "knex/types/tables.js" {
  interface Tables {
    contractor_events: TableOf<ContractorEventRow, ContractorEventInsert>;
  }
}
