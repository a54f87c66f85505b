// Assigning an unassigned order: the named contractor, else the booking rule's outcome for the pool; the seat is
// written in the assignment's transaction, and a seat taken meanwhile is picked again, a few times at most.
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import { isSeatTaken, seatAttempts, type Occupancy, type SeatLedger } from "../bookings.js";
import type { ContractorService } from "../contractors.js";
import { rankMatches, type Match } from "../matching.js";
import { stateTimeZone } from "../state-zones.js";
import { fulfilmentDeadline } from "../fulfilment-deadline.js";
import { invalidField } from "./errors.js";
import type { Plan } from "./assignment.js";
import { now as nowMs, nowDate } from "../../shared/clock.js";
import type { Config } from "../../../config.js";
import { respondByOf } from "./offer-records.js";
import { placeOf } from "../travel.js";
import { gridWindowAt, type ArrivalWindow } from "../arrival-windows.js";
import { isLate, type WayJob } from "./make-way.js";

export interface MatchRequest {
  /** The contractor an operator named: they must serve the job. */
  contractorId?: string;
  /** Contractors not to offer the job again (they declined it, or let an offer of it expire). */
  exclude?: ReadonlySet<string>;
  /** The window the order was booked in, tried first (a re-offer keeps the customer's window when it can). */
  keepWindowStart?: number | null;
}

/** A plan with its offer's response deadline: every assignment is an offer to the planned contractor. */
export type OfferedPlan = Plan & { respondBy: Date };
/** The booking rule's outcome when it is not "none": assign the plan, or hold the order at `match`'s price (`plan`:
 * the seat picked, absent when nobody has one). */
export type PlannedOutcome<P extends Plan = OfferedPlan> =
  { kind: "assign"; match: Match; plan: P } | { kind: "hold"; match: Match; plan?: P };

/** What assigning reads of the order: its job, its NTE, its environment (whose seats it books) and its creation
 * (its fulfilment deadline). */
export type JobRow = Pick<
  OrderRow,
  "environment" | "trade" | "state" | "location" | "urgency" | "nte_cents" | "created_at"
>;

/** What assigning reads: the pool and the seats. */
export interface Assigner {
  contractors: ContractorService;
  seats: SeatLedger;
  config: Pick<Config, "offerDeadlineMinutes" | "publicBaseUrl">;
  /** Moves the jobs in the way of a job nobody reaches by its deadline (orders/make-way.ts); the dispatcher's. */
  makeWay?: (job: WayJob, matches: Match[]) => Promise<boolean>;
}

/** The named contractor as a pool of one: 422 unless active in the order's trade. */
async function namedContractor(contractors: ContractorService, row: JobRow, contractorId: string) {
  const contractor = await contractors.get(contractorId);
  if (!contractor?.active || !contractor.trades.includes(row.trade))
    throw invalidField("/contractor_id", `No active ${row.trade} contractor ${contractorId}.`);
  return [contractor];
}

function noSeat(row: JobRow, contractorId: string | undefined) {
  if (contractorId)
    return new DomainError(
      "conflict",
      "contractor_at_capacity",
      `Contractor ${contractorId} has no free seat in any ${row.urgency} window (off, or its concurrent_jobs or jobs_per_day taken).`,
    );
  return new DomainError(
    "conflict",
    "no_window_available",
    `Every active ${row.trade} contractor that serves ${row.state} is fully booked (or off) within the ${row.urgency} horizon.`,
  );
}

/** The booking rule's outcome for an unassigned order (409 when nobody serves it, or none: nobody has a seat and
 * nobody's price holds it); a plan's seats stay claimed. */
export async function planUnassigned(
  assigner: Assigner,
  row: JobRow,
  request: MatchRequest & { fresh?: boolean },
): Promise<PlannedOutcome<Plan>> {
  const { contractorId } = request;
  const { contractors } = assigner;
  const job = { trade: row.trade, location: row.location, urgency: row.urgency };
  const named = contractorId ? await namedContractor(contractors, row, contractorId) : null;
  const pool = (named ?? (await contractors.candidates(row.trade, row.state))).filter(
    (contractor) => !request.exclude?.has(contractor.id),
  );
  const matches = rankMatches(pool, job);
  if (!matches.length && contractorId)
    throw invalidField(
      "/contractor_id",
      `Contractor ${contractorId} does not serve ${row.state} at ${row.urgency} urgency.`,
    );
  if (!matches.length)
    throw new DomainError(
      "conflict",
      "no_contractor_in_area",
      `No active ${row.trade} contractor serves ${row.state} yet; name one with contractor_id.`,
    );
  const outcome = await planFor(assigner, row, matches, request);
  if (outcome.kind === "none") throw noSeat(row, contractorId);
  return outcome;
}

/** The booking rule's outcome on a read of the matches' seats; when nobody arrives by the deadline, the dispatcher's
 * assignments let calmer jobs make way (assigner.makeWay), then book on a fresh read. */
async function planFor(assigner: Assigner, row: JobRow, matches: Match[], request: MatchRequest & { fresh?: boolean }) {
  const { seats } = assigner;
  const zone = stateTimeZone(row.state);
  const now = nowMs();
  const candidates = matches.map((match) => match.contractor);
  const { environment, urgency, trade } = row;
  const read = { environment, zone, urgency, now, trade, ...placeOf(row.location) };
  const kept = request.keepWindowStart == null ? undefined : gridWindowAt(zone, request.keepWindowStart, now);
  const outcome = bookKept(seats, await seats.read(candidates, read, request.fresh), matches, row, kept);
  const deadline = fulfilmentDeadline(row.urgency, new Date(row.created_at)).getTime();
  const named = request.contractorId !== undefined;
  if (named || !assigner.makeWay || !isLate(outcome, deadline)) return outcome;
  if (!(await assigner.makeWay({ ...row, deadline }, matches))) return outcome;
  seats.release(outcome.plan?.booking);
  return bookKept(seats, await seats.read(candidates, read, true), matches, row, kept);
}

/** The window a re-offer keeps when some match can take it, else the booking rule's pick by the order's deadline. */
function bookKept(seats: SeatLedger, occupancy: Occupancy, matches: Match[], row: JobRow, kept?: ArrivalWindow) {
  const nteCents = row.nte_cents;
  const inKept = kept ? seats.book(occupancy, matches, { nteCents, window: kept, keptWindow: true }) : null;
  if (inKept?.kind === "assign") return inKept;
  seats.release(inKept?.plan?.booking);
  const deadline = fulfilmentDeadline(row.urgency, new Date(row.created_at)).getTime();
  return seats.book(occupancy, matches, { nteCents, deadline });
}

/** Plans the booking rule's outcome and acts on it, again when another instance took the seats first. */
export async function actOnOutcome<T>(
  assigner: Assigner,
  row: JobRow,
  request: MatchRequest,
  act: (outcome: PlannedOutcome) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // a retry reads afresh
    const outcome = await planUnassigned(assigner, row, { ...request, fresh: attempt > 1 });
    try {
      const respondBy = respondByOf(assigner.config.offerDeadlineMinutes, row.urgency, nowDate());
      if (!outcome.plan) return await act({ kind: "hold", match: outcome.match });
      return await act({ ...outcome, plan: { ...outcome.plan, respondBy } });
    } catch (error) {
      if (!isSeatTaken(error) || attempt >= seatAttempts) throw error;
    } finally {
      assigner.seats.release(outcome.plan?.booking);
    }
  }
}

/** Assigns by hand (an operator, the sandbox): the plan is applied whatever the outcome, so the NTE rule refuses a
 * hold unless overridden; 409 as for "none" when nobody has a seat. */
export const assignWithSeats = <T>(
  assigner: Assigner,
  row: JobRow,
  request: MatchRequest,
  apply: (plan: OfferedPlan) => Promise<T>,
): Promise<T> =>
  actOnOutcome(assigner, row, request, (outcome) => {
    if (!outcome.plan) throw noSeat(row, request.contractorId);
    return apply(outcome.plan);
  });
