// Arrival windows: the two-hour slots on the job's local clock (even hours; a DST day leaves a gap, never an
// overlap). Pure and cached per zone (docs/decisions.md#the-dispatch-modules).
import { offsetMinutes, workingIntervals, type Calendar } from "./calendar.js";
import type { Urgency } from "./trades.js";

export interface ArrivalWindow {
  /** Instants, ms since the epoch. */
  start: number;
  end: number;
  /** The contract's form: date-time with the job zone's offset. */
  startText: string;
  endText: string;
}

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
export const windowMs = 2 * hour;
export const bookableUntilBeforeEndMs = 30 * minute;
export const horizonMs: Readonly<Record<Urgency, number>> = {
  emergency: 4 * hour,
  urgent: 24 * hour,
  routine: 3 * day,
  scheduled: 14 * day,
};
/** The most windows any horizon holds (the scheduled horizon's, and the one under way): the contract's maxItems. */
export const maxArrivalWindows = 170;
/** Grids and worked windows are computed for this many days from the day before today. */
const cachedDays = 17;

/** `ms` as a date-time in the zone's offset, to the second: 2026-11-27T08:00:00-06:00. */
export function withOffset(zone: string, ms: number): string {
  const offset = offsetMinutes(zone, ms);
  const local = new Date(ms + offset * minute).toISOString().slice(0, 19);
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${offset < 0 ? "-" : "+"}${hh}:${mm}`;
}

export const isEvenLocalHour = (zone: string, ms: number): boolean =>
  (((ms + offsetMinutes(zone, ms) * minute) % windowMs) + windowMs) % windowMs === 0;

interface Grid {
  from: number;
  windows: ArrivalWindow[];
}
/** Per zone, its grids by first day: a sandbox clock on another day neither rebuilds nor re-creates today's. */
const grids = new Map<string, Map<number, Grid>>();
const gridsPerZone = 8;

function buildGrid(zone: string, from: number): Grid {
  const windows: ArrivalWindow[] = [];
  const to = from + cachedDays * day;
  // Quarter hours cover every zone's offsets; a start inside the previous window (a clock set back) is skipped.
  for (let t = from; t < to; t += 15 * minute) {
    if (!isEvenLocalHour(zone, t) || (windows.length && t < windows[windows.length - 1].end)) continue;
    windows.push({
      start: t,
      end: t + windowMs,
      startText: withOffset(zone, t),
      endText: withOffset(zone, t + windowMs),
    });
  }
  return { from, windows };
}

/** The zone's windows from the day before `now`'s UTC day, for cachedDays days. */
function gridOf(zone: string, now: number): ArrivalWindow[] {
  const from = Math.floor(now / day) * day - day;
  let byFrom = grids.get(zone);
  if (!byFrom) {
    byFrom = new Map();
    grids.set(zone, byFrom);
  }
  let grid = byFrom.get(from);
  if (!grid) {
    if (byFrom.size >= gridsPerZone) byFrom.delete(byFrom.keys().next().value!);
    grid = buildGrid(zone, from);
    byFrom.set(from, grid);
  }
  return grid.windows;
}

export const isBookable = (window: Pick<ArrivalWindow, "start" | "end">, urgency: Urgency, now: number) =>
  window.end - bookableUntilBeforeEndMs > now && window.start < now + horizonMs[urgency];

export function bookableWindows(zone: string, urgency: Urgency, now: number): ArrivalWindow[] {
  const grid = gridOf(zone, now);
  const first = firstEndingAfter(grid, now + bookableUntilBeforeEndMs, (window) => window);
  const windows: ArrivalWindow[] = [];
  for (let i = first; i < grid.length && grid[i].start < now + horizonMs[urgency]; i++) windows.push(grid[i]);
  return windows;
}

/** The index of the first item (of a list in time order) whose window ends after `at`. */
export function firstEndingAfter<T>(items: T[], at: number, windowOf: (item: T) => { end: number }): number {
  let [lo, hi] = [0, items.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (windowOf(items[mid]).end > at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export const gridWindowAt = (zone: string, start: number, now: number): ArrivalWindow | undefined =>
  gridOf(zone, now).find((window) => window.start === start);

export interface WorkedWindow {
  window: ArrivalWindow;
  /** The window start's date on the contractor's clock (YYYY-MM-DD): the day its jobs_per_day counts in. */
  day: string;
}
interface Worked {
  from: number;
  windows: WorkedWindow[];
}
const worked = new WeakMap<object, Map<string, Worked>>();
/** The same hours' windows for a contractor read afresh (a new object), by the calendar's content. */
const byContent = new Map<string, Worked>();
const maxByContent = 4096;

function buildWorked(calendar: Calendar, zone: string, now: number): Worked {
  const grid = gridOf(zone, now);
  const from = Math.floor(now / day) * day - day;
  const intervals = workingIntervals(calendar, new Date(from), new Date(from + cachedDays * day + day));
  const windows: WorkedWindow[] = [];
  let i = 0;
  for (const window of grid) {
    while (i < intervals.length && intervals[i].end.getTime() <= window.start) i++;
    const interval = intervals[i];
    if (!interval || interval.start.getTime() > window.start || interval.end.getTime() < window.end) continue;
    const local = window.start + offsetMinutes(calendar.time_zone, window.start) * minute;
    windows.push({ window, day: new Date(local).toISOString().slice(0, 10) });
  }
  return { from, windows };
}

/** The grid windows the contractor works whole, around `now`; cached per contractor and zone, for the day. */
export function workedWindows(contractor: Calendar, zone: string, now: number): WorkedWindow[] {
  let byZone = worked.get(contractor);
  if (!byZone) {
    byZone = new Map<string, Worked>();
    worked.set(contractor, byZone);
  }
  const from = Math.floor(now / day) * day - day;
  let entry = byZone.get(zone);
  if (entry?.from !== from) {
    entry = sameCalendar(contractor, zone, now, from);
    byZone.set(zone, entry);
  }
  return entry.windows;
}

function sameCalendar(calendar: Calendar, zone: string, now: number, from: number): Worked {
  const key = `${zone}|${calendar.time_zone}|${JSON.stringify(calendar.working_hours)}`;
  let entry = byContent.get(key);
  if (entry?.from !== from) {
    if (byContent.size >= maxByContent) byContent.clear();
    entry = buildWorked(calendar, zone, now);
    byContent.set(key, entry);
  }
  return entry;
}
