// The duration of a sandbox clock advance (`by`): ISO 8601's day-time form (PT2H) or short (2h, 1d30m), as the
// contract's pattern states; read by hand, not a library (docs/decisions.md, sandbox clock durations).
import { DomainError } from "../errors.js";

/** The longest advance: 30 days. */
export const maxAdvanceMs = 30 * 24 * 3_600_000;

const units = { d: 24 * 3_600_000, h: 3_600_000, m: 60_000, s: 1000 } as const;
const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const short = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Milliseconds of a duration the contract's pattern admitted; 422 above 30 days. */
export function durationMs(text: string): number {
  const match = iso.exec(text) ?? short.exec(text);
  if (!match) throw tooLong(text, "is not a duration"); // the contract's pattern refused it first
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  const ms = days * units.d + hours * units.h + minutes * units.m + seconds * units.s;
  if (ms > maxAdvanceMs) throw tooLong(text, "is longer than 30 days");
  return ms;
}

function tooLong(text: string, why: string) {
  return new DomainError("validation", "validation_failed", `The duration ${text} ${why}.`, {
    errors: [{ pointer: "/by", message: `must be a duration of at most 30 days (P30D); ${text} ${why}` }],
  });
}
