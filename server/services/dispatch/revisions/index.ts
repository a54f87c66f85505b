// Price revisions of an order's NTE: the contractor's request (request.ts), the customer's answer (answer.ts), and
// the shared rows (orders/revision-records.ts); a contractor's request runs on the order's clock (shared/test-clock.ts).
import type { Config } from "../../../config.js";
import type { Db } from "../../../db/knex.js";
import type { ContractorCaller, Tenant } from "../../access/principal.js";
import { baseUrlOf } from "../../shared/base-url.js";
import { answerPriceRevision, type Answer } from "./answer.js";
import { requestPriceRevision, type PriceRevisionInput } from "./request.js";
import { onOrderClock } from "../../shared/test-clock.js";

export type { PriceRevisionInput } from "./request.js";

export interface Revising {
  db: Db;
  config: Pick<Config, "publicBaseUrl">;
  /** Told after revision events are written (the feed sequencer's nudge). */
  eventsWritten: () => void;
  /** Told when an approval released an order held over its NTE. */
  released: () => void;
}

export function createRevisionService(deps: Revising) {
  const { db, config, eventsWritten } = deps;
  const baseOf = (origin: string) => baseUrlOf(config.publicBaseUrl, origin);
  const answer = async (tenant: Tenant, ids: { id: string; revisionId: string }, answer: Answer, origin: string) => {
    const { view, released } = await answerPriceRevision(db, tenant, { ...ids, answer, base: baseOf(origin) }).finally(
      eventsWritten, // also after a refusal that withdrew the revision
    );
    if (released) deps.released();
    return view;
  };
  return {
    request: (caller: ContractorCaller, id: string, input: PriceRevisionInput, origin: string) =>
      onOrderClock(db, { id, environment: caller.environment }, () =>
        requestPriceRevision(db, caller, { id, input, base: baseOf(origin) }),
      ).finally(eventsWritten),
    approve: (tenant: Tenant, ids: { id: string; revisionId: string }, origin: string) =>
      answer(tenant, ids, "approved", origin),
    decline: (tenant: Tenant, ids: { id: string; revisionId: string }, origin: string) =>
      answer(tenant, ids, "declined", origin),
  };
}

export type RevisionService = ReturnType<typeof createRevisionService>;
