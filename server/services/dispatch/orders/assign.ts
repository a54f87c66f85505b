// Assigning an unassigned order: the contractor an operator names, else the best of the pool.
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import type { ContractorService } from "../contractors.js";
import { rankMatches, type Match } from "../matching.js";
import { invalidField } from "./errors.js";

export interface MatchRequest {
  /** The contractor an operator named: they must serve the job. */
  contractorId?: string;
}

/** The named contractor as a pool of one: 422 unless active in the order's trade. */
async function namedContractor(contractors: ContractorService, row: OrderRow, contractorId: string) {
  const contractor = await contractors.get(contractorId);
  if (!contractor?.active || !contractor.trades.includes(row.trade))
    throw invalidField("/contractor_id", `No active ${row.trade} contractor ${contractorId}.`);
  return [contractor];
}

/** The match for an unassigned order: the named contractor, else the best of the pool, else 409. */
export async function matchUnassigned(
  contractors: ContractorService,
  row: OrderRow,
  request: MatchRequest,
): Promise<Match> {
  const { contractorId } = request;
  const job = { trade: row.trade, location: row.location, urgency: row.urgency };
  const pool = contractorId
    ? await namedContractor(contractors, row, contractorId)
    : await contractors.candidates(row.trade, row.state);
  const best = rankMatches(pool, job)[0];
  if (best) return best;
  if (contractorId)
    throw invalidField(
      "/contractor_id",
      `Contractor ${contractorId} does not serve ${row.state} at ${row.urgency} urgency.`,
    );
  throw new DomainError(
    "conflict",
    "no_contractor_in_area",
    `No active ${row.trade} contractor serves ${row.state} yet; name one with contractor_id.`,
  );
}
