// Re-planning one contractor's day (pure): a job that would arrive after its fulfilment deadline (booked so, or not
// yet booked) arrives by it on a free technician, or by moving the jobs in its way on one technician (not set off;
// due later, still by their own deadlines, or already booked past theirs). Why: docs/decisions.md, "Re-planning".
import { bookableUntilBeforeEndMs, type WorkedWindow } from "./arrival-windows.js";
import { lowestFree } from "./bookings.js";
import { earliestArrival, overlaps, type Busy, type JobTime, type Placement } from "./technician-time.js";

/** One booking of the contractor as the re-plan reads it. */
export interface PlannedJob {
  orderId: string;
  seat: number;
  busy: Busy;
  day: string;
  daySeat: number;
  arrival: number;
  /** The order's fulfilment deadline (ms). */
  deadline: number;
  /** Whether the dispatch may move it: its technician has not set off and the window is its own choice. */
  movable: boolean;
  /** What the job asks of a technician, from now; its worked windows in its own zone. */
  time: JobTime;
  windows: WorkedWindow[];
}

/** Where a job goes: its technician, its arrival and busy interval, its window and day seat. */
export interface Move {
  orderId: string;
  seat: number;
  placement: Placement;
  worked: WorkedWindow;
  daySeat: number;
}

export interface Replan {
  /** The late job, now arriving by its deadline. */
  late: Move;
  /** The jobs moved later to make way for it (none when a technician was free). */
  yielded: Move[];
}

export interface DayLedger {
  concurrent: number;
  perDay: number;
  jobs: PlannedJob[];
}

/** The day seat a job takes on `day` beside `taken`: its own there when free, else the lowest free one, or null. */
const daySeatOn = (ledger: DayLedger, held: Pick<PlannedJob, "day" | "daySeat">, day: string, taken: Set<number>) =>
  held.day === day && !taken.has(held.daySeat) ? held.daySeat : lowestFree(taken, ledger.perDay);

const seatsOn = (jobs: PlannedJob[], day: string) => jobs.filter((job) => job.day === day).map((job) => job.daySeat);

/** The earliest placement of `job` by `until` (ms) on any technician, beside `others`; the day seat it keeps on its own
 * day, else the lowest free one. */
function place(
  ledger: DayLedger,
  job: PlannedJob,
  others: PlannedJob[],
  extra: Move[],
  limits: { now: number; until: number; seat?: number },
) {
  const { now, until } = limits;
  let best: Move | null = null;
  for (const worked of job.windows) {
    const { window } = worked;
    if (window.end - bookableUntilBeforeEndMs <= now) continue;
    if (window.start > until || (best && window.start >= best.placement.arrival)) break;
    const taken = new Set([
      ...seatsOn(others, worked.day),
      ...extra.filter((m) => m.worked.day === worked.day).map((m) => m.daySeat),
    ]);
    const daySeat = daySeatOn(ledger, job, worked.day, taken);
    if (daySeat === null) continue;
    for (let seat = 0; seat < ledger.concurrent; seat++) {
      if (limits.seat !== undefined && seat !== limits.seat) continue;
      const busy = [
        ...others.filter((o) => o.seat === seat).map((o) => o.busy),
        ...extra.filter((m) => m.seat === seat).map((m) => m.placement.busy),
      ];
      const placement = earliestArrival(busy, window, job.time);
      if (!placement || placement.arrival > until) continue;
      if (!best || placement.arrival < best.placement.arrival)
        best = { orderId: job.orderId, seat, placement, worked, daySeat };
    }
  }
  return best;
}

/** A job booked to arrive after its own deadline: a promise already broken, which yields to one still kept. */
const isPastDeadline = (job: PlannedJob) => job.arrival > job.deadline;

/** The jobs of `rest` on `seat` that `late` may move: not set off; due after it, or past their own deadline. */
const movableOn = (rest: PlannedJob[], late: PlannedJob, seat: number) =>
  rest.filter((job) => job.movable && job.seat === seat && (job.deadline > late.deadline || isPastDeadline(job)));

/** A moved job arrives by its own deadline, or at any time once booked past it. */
const untilFor = (job: PlannedJob) => (isPastDeadline(job) ? Infinity : job.deadline);

const byPressure = (a: PlannedJob, b: PlannedJob) =>
  Number(isPastDeadline(a)) - Number(isPastDeadline(b)) ||
  a.deadline - b.deadline ||
  a.orderId.localeCompare(b.orderId);

/** `late` at `moved`, `aside` set aside: the jobs in its way placed again (those still due first), or null. */
function wayAt(ledger: DayLedger, moved: Move, aside: PlannedJob[], others: PlannedJob[], now: number) {
  const inWay = aside.filter((job) => overlaps(job.busy, moved.placement.busy));
  const kept = [...others, ...aside.filter((job) => !inWay.includes(job))];
  const day = moved.worked.day;
  const daySeat = daySeatOn(ledger, { day, daySeat: moved.daySeat }, day, new Set(seatsOn(kept, day)));
  if (daySeat === null) return null;
  const late = { ...moved, daySeat };
  const yielded: Move[] = [];
  let delay = 0; // how much later the jobs already past their deadline now come
  for (const job of [...inWay].sort(byPressure)) {
    const placed = place(ledger, job, kept, [late, ...yielded], { now, until: untilFor(job) });
    if (!placed) return null;
    yielded.push(placed);
    if (isPastDeadline(job)) delay += Math.max(0, placed.placement.arrival - job.arrival);
  }
  return { late, yielded, delay };
}

/** `late` by its deadline beside `rest`: on a free technician, else on one technician moving the jobs in its way
 * (all set aside; each alone too when one is past its deadline): the plan delaying those late least, then earliest. */
function bringBy(ledger: DayLedger, late: PlannedJob, rest: PlannedJob[], now: number): Replan | null {
  const alone = place(ledger, late, rest, [], { now, until: late.deadline });
  if (alone) return { late: alone, yielded: [] };
  let best: (Replan & { delay: number }) | null = null;
  const better = (a: { delay: number; late: Move }, b: typeof best) =>
    !b || a.delay < b.delay || (a.delay === b.delay && a.late.placement.arrival < b.late.placement.arrival);
  for (let seat = 0; seat < ledger.concurrent; seat++) {
    const movable = movableOn(rest, late, seat);
    if (!movable.length) continue;
    const others = rest.filter((job) => !movable.includes(job));
    const eachAlone = movable.length > 1 && movable.some(isPastDeadline); // one alone is all of them
    const asides = eachAlone ? [movable, ...movable.map((job) => [job])] : [movable];
    for (const aside of asides) {
      const beside = [...others, ...movable.filter((job) => !aside.includes(job))];
      const moved = place(ledger, late, beside, [], { now, until: late.deadline, seat });
      const way = moved && wayAt(ledger, moved, aside, beside, now);
      if (way && better(way, best)) best = way;
    }
  }
  return best && { late: best.late, yielded: best.yielded };
}

/** The re-plan that brings booked job `lateId` by its deadline, or null (on time already, past it, or not movable). */
export function replanLate(ledger: DayLedger, lateId: string, now: number): Replan | null {
  const late = ledger.jobs.find((job) => job.orderId === lateId);
  if (!late || !late.movable || late.arrival <= late.deadline || late.deadline <= now) return null;
  return bringBy(
    ledger,
    late,
    ledger.jobs.filter((job) => job !== late),
    now,
  );
}

/** The jobs to move so that a job not yet booked arrives by its deadline here: none when it fits or nothing can. */
export function wayFor(ledger: DayLedger, job: Pick<PlannedJob, "time" | "windows" | "deadline">, now: number) {
  const unbooked: PlannedJob = {
    ...job,
    orderId: "",
    seat: -1,
    busy: { from: 0, until: 0 },
    day: "",
    daySeat: -1,
    arrival: Infinity,
    movable: true,
  };
  return bringBy(ledger, unbooked, ledger.jobs, now)?.yielded ?? [];
}
