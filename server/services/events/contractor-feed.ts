// The contractor feed: contractor_events rows as ContractorEvent (`cev_<seq>`) per contractor and environment;
// toContractorEvent renders the stored row alone (dispatch/orders/contractor-events.ts), for page and stream.
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import type { ContractorEventRow } from "../../db/tables/contractor-events.js";
import type { Schemas } from "../../types/contract.js";
import type { FeedSource } from "./feed-source.js";
import { contractorEventsTable, feedHead } from "./sequencer.js";
import { storedEta } from "./catalogue.js";

export type ContractorEvent = Schemas["ContractorEvent"];
/** Whose events: one contractor in one environment (a contractor key's). */
export interface ContractorScope {
  contractorId: string;
  environment: ContractorEventRow["environment"];
}
type Conn = Knex | Knex.Transaction;
type Row = Omit<ContractorEventRow, "seq" | "at"> & { seq: number | string; at: Date | string };

export const contractorEventId = (seq: number) => `cev_${seq}`;
export const contractorSeqOf = (id: string | undefined) => (id ? Number(/^cev_(\d{1,18})$/.exec(id)?.[1] ?? 0) : 0);

/** Sequenced rows after `afterSeq`, in feed order (unsequenced ones are not in the feed yet). */
const sequencedRows = (db: Conn, afterSeq: number) =>
  db("contractor_events")
    .where("seq", ">", afterSeq)
    .orderBy("seq")
    .select<Row[]>("seq", "contractor_id", "environment", "account", "order_id", "offer_id", "type", "at", "data");

/** One contractor's rows (the (contractor_id, environment, seq) index), up to `uptoSeq`. */
function scopedRows(db: Conn, afterSeq: number, scope: ContractorScope, uptoSeq?: number) {
  const query = sequencedRows(db, afterSeq).where({
    contractor_id: scope.contractorId,
    environment: scope.environment,
  });
  if (uptoSeq !== undefined) void query.where("seq", "<=", uptoSeq);
  return query;
}

/** One row as the contractor sees it: the page item and, byte for byte, the SSE `data:`. */
export function toContractorEvent(row: Row): ContractorEvent {
  const at = new Date(row.at).toISOString();
  const { order_id, offer_id, data } = row;
  return {
    id: contractorEventId(Number(row.seq)),
    type: row.type,
    timestamp: at,
    data: { order_id, offer_id, at, ...data, ...(data.eta ? { eta: storedEta(data.eta) } : {}) },
  };
}

/** listContractorEvents as JSON. */
export async function contractorEventPage(db: Db, afterSeq: number, scope: ContractorScope, limit: number) {
  const items = (await scopedRows(db, afterSeq, scope).limit(limit)).map(toContractorEvent);
  return { items, next_after: items.at(-1)?.id ?? null };
}

/** The contractor feed as streams read it: a contractor's new events from the moment the stream opens. */
export const contractorFeed: FeedSource<ContractorScope> = {
  rowsAfter: (db, afterSeq, limit) => sequencedRows(db, afterSeq).limit(limit),
  latestSeq: (db) => feedHead(db, contractorEventsTable),
  scoped: (scope) => ({
    rows: (db, afterSeq, uptoSeq, limit) => scopedRows(db, afterSeq, scope, uptoSeq).limit(limit),
    has: (row: Row) => {
      return row.contractor_id === scope.contractorId && row.environment === scope.environment;
    },
    render: (row: Row) => toContractorEvent(row),
    fromStart: false,
  }),
};
