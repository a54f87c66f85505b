// The one estimate of a technician's drive to a job: geo/drive.ts from the contractor's base ZIP to the job's ZIP
// (or its city, or its state), loaded once before the first booking read (docs/decisions.md#technicians-time).
import type { Match } from "./matching.js";

export interface TravelJob {
  zip?: string;
  state?: string;
  city?: string;
}

/** The drive assumed when nothing places the job or the base (and before the ZIP dataset has loaded). */
export const flatTravelMinutes = 30;

/** Where a job is, as the drive reads it, from the job's location (nulls and the street left out). */
export const placeOf = (location: { state: string; zip?: string | null; city?: string | null }): TravelJob => ({
  state: location.state,
  ...(location.zip ? { zip: location.zip } : {}),
  ...(location.city ? { city: location.city } : {}),
});

type Drive = typeof import("./geo/drive.js");
let drive: Drive | undefined;
let loading: Promise<Drive> | undefined;

/** Loads the drive model (the ZIP dataset, once); every booking read awaits it, so no estimate is flat. */
export const travelReady = (): Promise<Drive> =>
  (loading ??= import("./geo/drive.js").then((module) => (drive = module)));

export function travelMinutes(match: Pick<Match, "contractor">, job: TravelJob): number {
  const base = match.contractor.base_zip;
  if (!drive || !base) return flatTravelMinutes;
  if (job.state) return drive.driveMinutesTo(base, { state: job.state, zip: job.zip, city: job.city });
  return job.zip ? drive.driveMinutes(base, job.zip) : flatTravelMinutes;
}
