// A job's instants as its local clock shows them, with the offset (`2026-11-30T10:05:00-06:00`), in its state's zone
// (the contract's UsState `x-time-zones`): tables print times where the work happens, not in UTC.
import { stateTimeZones } from "./generated/operations.js";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    const digits = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" } as const;
    format = new Intl.DateTimeFormat("en-US", {
      ...digits,
      second: "2-digit",
      hourCycle: "h23",
      timeZone: zone,
      timeZoneName: "longOffset",
    });
    formats.set(zone, format);
  }
  return format;
}

/** The zone of a US state code, undefined for one the contract does not list. */
export const zoneOfState = (state: unknown): string | undefined =>
  typeof state === "string" ? stateTimeZones[state] : undefined;

/** `iso` on the clock of `zone`, with its offset; the text unchanged when it is no instant or there is no zone. */
export function localTime(iso: string, zone: string | undefined): string {
  const date = new Date(iso);
  if (!zone || Number.isNaN(date.getTime())) return iso;
  const part = Object.fromEntries(
    formatIn(zone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const offset = part.timeZoneName === "GMT" ? "+00:00" : part.timeZoneName.slice(3);
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
}
