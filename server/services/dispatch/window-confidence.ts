// How sure a quote is of an arrival window it offers: by the slack between the earliest arrival any candidate
// technician can make in it and the window's end, and by how many technicians could take it
// (docs/decisions.md#technicians-time). Pure.
import type { Schemas } from "../../types/contract.js";

export type Confidence = Schemas["QuotedArrivalWindow"]["confidence"];

const minute = 60_000;
/** Slack at which one overrun job or a slow drive still leaves the arrival inside the window. */
export const highSlackMs = 60 * minute;
export const mediumSlackMs = 30 * minute;

/** The technicians a window needs for "high": more of them change no grade. */
export const gradedTechnicians = 2;

/** high: ≥ 60 minutes of slack and two technicians or more; medium: ≥ 30 minutes (or ≥ 60 with one); else low. */
export function confidenceOf(windowEnd: number, earliestArrival: number, technicians: number): Confidence {
  const slack = windowEnd - earliestArrival;
  if (slack >= highSlackMs && technicians >= gradedTechnicians) return "high";
  if (slack >= mediumSlackMs) return "medium";
  return "low";
}
