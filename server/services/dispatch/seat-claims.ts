// This instance's claims on the seats it picked, per technician and per day, taken by every read until the booking's
// write ends, then by the reads begun before it (docs/decisions.md#seats-and-the-booking-rule, "Scale").
import type { Booking } from "./booking-rule.js";
import { dayKey, technicianKey } from "./booking-reads.js";
import type { Busy } from "./technician-time.js";

/** How long a written seat stays claimed for reads begun before its write ended. */
const claimLingerMs = 10_000;

interface Claim {
  booking: Booking;
  ended: number; // when its write ended; Infinity while pending
}
type ClaimMap = Map<string, Claim[]>;

const sameSeats = (a: Booking, b: Booking) =>
  a.contractorId === b.contractorId &&
  a.seat === b.seat &&
  a.busy.from === b.busy.from &&
  a.day === b.day &&
  a.daySeat === b.daySeat;

function add(map: ClaimMap, key: string, booking: Booking): void {
  const claims = map.get(key);
  if (claims) claims.push({ booking, ended: Infinity });
  else map.set(key, [{ booking, ended: Infinity }]);
}

function purge(map: ClaimMap, now: number): void {
  for (const [key, claims] of map) {
    const kept = claims.filter((claim) => claim.ended >= now - claimLingerMs);
    if (kept.length) map.set(key, kept);
    else map.delete(key);
  }
}

export function createClaims() {
  const technicians: ClaimMap = new Map();
  const days: ClaimMap = new Map();
  let purgedAt = 0;
  const keysOf = (b: Booking): [ClaimMap, string][] => [
    [technicians, technicianKey(b.contractorId, b.seat)],
    [days, dayKey(b.contractorId, b.day)],
  ];
  return {
    none: () => technicians.size === 0 && days.size === 0,
    /** The technician's claimed busy intervals that a read begun at `readAt` takes as busy. */
    busy(contractorId: string, technician: number, readAt: number): Busy[] {
      const claims = technicians.get(technicianKey(contractorId, technician)) ?? [];
      return claims.filter((claim) => claim.ended >= readAt).map((claim) => claim.booking.busy);
    },
    /** Whether day seat `seat` of the contractor's local day is claimed for a read begun at `readAt`. */
    daySeat(contractorId: string, localDay: string, seat: number, readAt: number): boolean {
      const claims = days.get(dayKey(contractorId, localDay)) ?? [];
      return claims.some((claim) => claim.booking.daySeat === seat && claim.ended >= readAt);
    },
    hold(booking: Booking): void {
      for (const [map, key] of keysOf(booking)) add(map, key, booking);
    },
    release(booking: Booking): void {
      const now = Date.now();
      for (const [map, key] of keysOf(booking))
        for (const claim of map.get(key) ?? [])
          if (sameSeats(claim.booking, booking)) claim.ended = Math.min(claim.ended, now);
      if (now - purgedAt < 1000) return;
      purgedAt = now;
      purge(technicians, now);
      purge(days, now);
    },
  };
}

export type Claims = ReturnType<typeof createClaims>;
