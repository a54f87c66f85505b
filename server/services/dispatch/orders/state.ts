// The order's status machine: every move and status set, one row per contract status; a new contract status fails
// `satisfies` below until its row decides each question.
import { contractEnums } from "../../../generated/contract.js";
import type { Schemas } from "../../../types/contract.js";

export type OrderLifecycleStatus = Schemas["OrderLifecycleStatus"];
/** A report the contractor holding a job makes (updateJobStatus). */
export type JobStep = Schemas["JobStep"];
/** Where an order can move to: every status but the first. */
export type TargetStatus = Exclude<OrderLifecycleStatus, "accepted_pending_fulfilment">;
/** How an order moves: a lifecycle step, a cancel, a contractor giving the job back, a re-offer finding nobody. */
export type MoveKind = "step" | "cancel" | "give_back" | "requeue";

interface StatusRow {
  /** The forward step; null for a final status. */
  next: TargetStatus | null;
  /** The move backwards and where it goes, or null. */
  back: { kind: "give_back" | "requeue"; to: OrderLifecycleStatus } | null;
  /** Operators may cancel; customers only while `customerCancels`. */
  cancels: boolean;
  customerCancels: boolean;
  /** A contractor is (to be) on the way: the order takes a new ETA and its window can be moved. */
  coming: boolean;
  /** A contractor accepted the job and has not finished it: a price revision may be asked. */
  underWay: boolean;
  /** Its technician has set off (or arrived, or finished): re-planning no longer moves it. */
  setOff: boolean;
  /** The cost a step to this status commits the order to, checked against its NTE. */
  commits: "expected_cost" | "final_cost" | null;
  /** The contractor holding the job reports reaching this status (a JobStep), rather than an operator or the system. */
  reported: boolean;
  /** A status past the next step the holder may report at once (the step between is applied first), or null. */
  reportsAhead: TargetStatus | null;
}

const machine = {
  accepted_pending_fulfilment: {
    next: "pending_dispatch",
    back: null,
    cancels: true,
    customerCancels: true,
    coming: false,
    underWay: false,
    setOff: false,
    commits: null,
    reported: false,
    reportsAhead: null,
  },
  pending_dispatch: {
    next: "dispatched",
    back: { kind: "requeue", to: "accepted_pending_fulfilment" },
    cancels: true,
    customerCancels: true,
    coming: true,
    underWay: false,
    setOff: false,
    commits: "expected_cost",
    reported: false,
    reportsAhead: null,
  },
  dispatched: {
    next: "en_route",
    back: { kind: "give_back", to: "pending_dispatch" },
    cancels: true,
    customerCancels: true,
    coming: true,
    underWay: true,
    setOff: false,
    commits: "expected_cost",
    reported: false,
    reportsAhead: "on_site",
  },
  en_route: {
    next: "on_site",
    back: { kind: "give_back", to: "pending_dispatch" },
    cancels: true,
    customerCancels: true,
    coming: true,
    underWay: true,
    setOff: true,
    commits: null,
    reported: true,
    reportsAhead: null,
  },
  on_site: {
    next: "completed",
    back: null,
    cancels: true,
    customerCancels: false,
    coming: false,
    underWay: true,
    setOff: true,
    commits: null,
    reported: true,
    reportsAhead: null,
  },
  completed: {
    next: null,
    back: null,
    cancels: false,
    customerCancels: false,
    coming: false,
    underWay: false,
    setOff: true,
    commits: "final_cost",
    reported: true,
    reportsAhead: null,
  },
  cancelled: {
    next: null,
    back: null,
    cancels: false,
    customerCancels: false,
    coming: false,
    underWay: false,
    setOff: false,
    commits: null,
    reported: false,
    reportsAhead: null,
  },
} as const satisfies Record<OrderLifecycleStatus, StatusRow>;

const rowOf = (status: OrderLifecycleStatus): StatusRow => machine[status];

/** The statuses the holder of a job reports reaching (the `reported` column). */
export type ReportedStatus = {
  [S in OrderLifecycleStatus]: (typeof machine)[S]["reported"] extends true ? S : never;
}[OrderLifecycleStatus];
/** The contract's JobStep is the reported statuses plus giving the job back; a status on one side only fails here,
 * named as [JobStep off the table, reported status not a JobStep]. */
type StepsOffTable = [Exclude<JobStep, ReportedStatus | "unable_to_attend">, Exclude<ReportedStatus, JobStep>];
const _jobStepsMatchTable: StepsOffTable extends [never, never] ? true : StepsOffTable = true;

/** The statuses of a set, in the contract's order (for messages). */
const statusesWhere = (test: (row: StatusRow) => boolean): OrderLifecycleStatus[] =>
  contractEnums.OrderLifecycleStatus.filter((status) => test(rowOf(status)));

/** The moves an operator's event may make: the forward step, then cancelling. */
export const allowedFrom = (status: OrderLifecycleStatus): readonly TargetStatus[] => {
  const { next, cancels } = rowOf(status);
  return [...(next ? [next] : []), ...(cancels ? (["cancelled"] as const) : [])];
};

export const nextStep = (status: OrderLifecycleStatus): TargetStatus | undefined => rowOf(status).next ?? undefined;

/** The status a move of `kind` from `from` reaches, or null when the machine has no such move. */
export function moveTarget(from: OrderLifecycleStatus, kind: MoveKind): OrderLifecycleStatus | null {
  const row = rowOf(from);
  if (kind === "step") return row.next;
  if (kind === "cancel") return row.cancels ? "cancelled" : null;
  return row.back?.kind === kind ? row.back.to : null;
}

export const isFinal = (status: OrderLifecycleStatus): boolean => rowOf(status).next === null;
export const customerMayCancel = (status: OrderLifecycleStatus): boolean => rowOf(status).customerCancels;
export const isComing = (status: OrderLifecycleStatus): boolean => rowOf(status).coming;
export const isUnderWay = (status: OrderLifecycleStatus): boolean => rowOf(status).underWay;
export const mayGiveBack = (status: OrderLifecycleStatus): boolean => rowOf(status).back?.kind === "give_back";
export const isReported = (status: OrderLifecycleStatus): status is ReportedStatus => rowOf(status).reported;
/** The status past the next step the holder may report from `status`, if any. */
export const reportedAhead = (status: OrderLifecycleStatus): TargetStatus | null => rowOf(status).reportsAhead;
export const committedBy = (status: OrderLifecycleStatus): StatusRow["commits"] => rowOf(status).commits;

export const comingStatuses = statusesWhere((row) => row.coming);
export const underWayStatuses = statusesWhere((row) => row.underWay);
/** Coming, its technician not yet set off: what re-planning may still move. */
export const notSetOffStatuses = statusesWhere((row) => row.coming && !row.setOff);
export const givableStatuses = statusesWhere((row) => row.back?.kind === "give_back");

export const advancingStatuses = statusesWhere((row) => row.next !== null);

export function isAhead(from: OrderLifecycleStatus, target: OrderLifecycleStatus): boolean {
  for (let step = nextStep(from); step; step = nextStep(step)) if (step === target) return true;
  return false;
}
