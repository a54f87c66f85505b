// A contractor's calendar: weekly working hours in its IANA zone turned into UTC instants. Pure, so quoting,
// booking, re-matching and the benchmark read one answer (docs/decisions.md#the-dispatch-modules).
import { weekdays, minutesOf, type WorkingHours } from "./working-hours.js";

export interface Calendar {
  time_zone: string;
  working_hours: WorkingHours;
}

export interface Interval {
  start: Date;
  end: Date;
}

const minute = 60_000;
const day = 86_400_000;
/** A year and a bit: longer ranges are a caller's mistake (and would loop for a long time). */
export const maxRangeDays = 400;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's wall clock at instant `ms`, as milliseconds of a UTC date with the same fields (seconds precision). */
function wallClock(zone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(ms))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's offset from UTC at instant `ms`, in minutes (-300 for New York in winter, 330 for Kolkata). */
export function offsetMinutes(zone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wallClock(zone, whole) - whole) / minute);
}

/** The instant of a local wall-clock time, given as the milliseconds of the same fields read as UTC. */
export function localToInstant(zone: string, local: number): number {
  const before = offsetMinutes(zone, local - day);
  const after = offsetMinutes(zone, local + day);
  const valid = [...new Set([before, after])]
    .map((offset) => local - offset * minute)
    .filter((instant) => local - offsetMinutes(zone, instant) * minute === instant);
  // Two: the repeated hour of a fall-back, the first occurrence. None: a skipped time, moved past the gap.
  return valid.length ? Math.min(...valid) : local - before * minute;
}

/** The local date (as UTC midnight milliseconds) of instant `ms` in the zone. */
const localDate = (zone: string, ms: number) => Math.floor(wallClock(zone, ms) / day) * day;

/** Joins overlapping or touching intervals of a list sorted by start. */
function join(intervals: [number, number][]): [number, number][] {
  const joined: [number, number][] = [];
  for (const [start, end] of intervals) {
    const last = joined.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  return joined;
}

/** The contractor's working time within [from, to), as UTC intervals in time order, joined where they touch. */
export function workingIntervals(calendar: Calendar, from: Date, to: Date): Interval[] {
  const [lo, hi] = [from.getTime(), to.getTime()];
  if (!(hi > lo)) return [];
  if (hi - lo > maxRangeDays * day) throw new RangeError(`a calendar range is at most ${maxRangeDays} days`);
  const zone = calendar.time_zone;
  const raw: [number, number][] = [];
  for (let date = localDate(zone, lo) - day; date <= localDate(zone, hi); date += day) {
    const intervals = calendar.working_hours[weekdays[new Date(date).getUTCDay()]];
    for (const { start, end } of intervals) {
      const s = Math.max(lo, localToInstant(zone, date + minutesOf(start) * minute));
      const e = Math.min(hi, localToInstant(zone, date + minutesOf(end) * minute));
      if (e > s) raw.push([s, e]);
    }
  }
  raw.sort((a, b) => a[0] - b[0]);
  return join(raw).map(([start, end]) => ({ start: new Date(start), end: new Date(end) }));
}

/** Whether the contractor is working at instant `at` (inside one of its intervals, start included, end not). */
export const isWorkingAt = (calendar: Calendar, at: Date): boolean =>
  workingIntervals(calendar, at, new Date(at.getTime() + 1)).length > 0;
