// Contractor availability (time_zone, working_hours, capacity): the rules the JSON Schema cannot say, checked
// wherever a contractor is written, and the stored week with all seven days present.
import { DomainError, type FieldError } from "../errors.js";
import type { Schemas } from "../../types/contract.js";

export type WorkingHours = Schemas["WorkingHours"];
export type WorkingHoursInput = Schemas["WorkingHoursInput"];
export type WorkingInterval = Schemas["WorkingInterval"];
export type Weekday = keyof WorkingHours;

/** In the order of Date#getUTCDay (0 is Sunday). */
export const weekdays: readonly Weekday[] = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
];

/** Every day 00:00–24:00: the contract's default, and so the hours of contractors created before hours existed. */
export const alwaysWorking: WorkingHours = {
  monday: [{ start: "00:00", end: "24:00" }],
  tuesday: [{ start: "00:00", end: "24:00" }],
  wednesday: [{ start: "00:00", end: "24:00" }],
  thursday: [{ start: "00:00", end: "24:00" }],
  friday: [{ start: "00:00", end: "24:00" }],
  saturday: [{ start: "00:00", end: "24:00" }],
  sunday: [{ start: "00:00", end: "24:00" }],
};

/** Monday to Friday start–end, and Saturday's hours when given (a shop's week). */
export function weekdayHours(start: string, end: string, saturday?: [string, string]): WorkingHoursInput {
  const day = [{ start, end }];
  const week: WorkingHoursInput = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day };
  if (saturday) week.saturday = [{ start: saturday[0], end: saturday[1] }];
  return week;
}

/** Minutes after local midnight of "HH:MM" (the contract's patterns guarantee the shape; "24:00" is 1440). */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The week with every day present (a day left out is a day off), each interval copied as given. */
export function fullWeek(input: WorkingHoursInput): WorkingHours {
  const week = {} as WorkingHours;
  for (const day of [...weekdays.slice(1), weekdays[0]])
    week[day] = (input[day] ?? []).map(({ start, end }) => ({ start, end }));
  return week;
}

/** The zone as written (in the database's letter case) when Intl knows it, else null; not Intl's canonical name. */
export function storedTimeZone(zone: string): string | null {
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return null;
  }
}

function intervalProblems(day: Weekday, intervals: WorkingInterval[], prefix: string): FieldError[] {
  const problems: FieldError[] = [];
  let previousEnd = 0;
  intervals.forEach(({ start, end }, i) => {
    const at = `${prefix}/working_hours/${day}/${i}`;
    if (minutesOf(end) <= minutesOf(start))
      problems.push({ pointer: `${at}/end`, message: `"end" (${end}) must be after "start" (${start})` });
    else if (minutesOf(start) < previousEnd)
      problems.push({
        pointer: `${at}/start`,
        message: `"start" (${start}) must not be before the previous interval's end: a day's intervals are in time order without overlap`,
      });
    previousEnd = Math.max(previousEnd, minutesOf(end));
  });
  return problems;
}

/** What is wrong with a contractor's zone and hours, as field errors under `prefix` ("" for a request body). */
export function availabilityProblems(
  input: { time_zone?: string; working_hours?: WorkingHoursInput },
  prefix = "",
): FieldError[] {
  const problems: FieldError[] = [];
  if (input.time_zone !== undefined && storedTimeZone(input.time_zone) === null)
    problems.push({
      pointer: `${prefix}/time_zone`,
      message: `"time_zone" (${input.time_zone}) is not an IANA time zone this server knows`,
    });
  for (const day of weekdays) problems.push(...intervalProblems(day, input.working_hours?.[day] ?? [], prefix));
  return problems;
}

/** 422 validation_failed naming each field when the zone or hours break the rules above. */
export function assertAvailability(input: { time_zone?: string; working_hours?: WorkingHoursInput }): void {
  const errors = availabilityProblems(input);
  if (errors.length)
    throw new DomainError(
      "validation",
      "validation_failed",
      errors.length === 1 ? errors[0].message : `${errors.length} fields are invalid.`,
      { errors },
    );
}
