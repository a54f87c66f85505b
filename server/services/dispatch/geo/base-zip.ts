// A contractor's base, the ZIP its technicians set off from: checked against the ZIP dataset and the states it
// serves, and its default when none is given (docs/decisions.md, "Where things are: bases and drive times").
import type { FieldError } from "../../errors.js";
import { centralZip, cityZips, prefixZips, principalZip, zipPoint, type ZipPoint } from "./zip-points.js";

interface Area {
  state: string;
  cities?: string[];
  zip_prefixes?: string[];
}

const centralOf = (points: ZipPoint[]) => centralZip(points)?.zip;

/** The first area's first ZIP prefix's central ZIP, else its first city's, else its state's principal ZIP;
 * undefined only for a state the dataset has no ZIP in. */
export function defaultBaseZip(areas: readonly Area[]): string | undefined {
  const [{ cities = [], zip_prefixes = [] }] = areas; // minItems: 1
  const state = areas[0].state.toUpperCase();
  return (
    (zip_prefixes.length ? centralOf(prefixZips(state, zip_prefixes[0])) : undefined) ??
    (cities.length ? centralOf(cityZips(state, cities[0])) : undefined) ??
    principalZip(state)?.zip
  );
}

/** Why `zip` cannot be the base of a contractor serving `areas` (at `pointer`), or null when it can. */
export function baseZipProblem(zip: string, areas: readonly Area[], pointer = "/base_zip"): FieldError | null {
  const states = [...new Set(areas.map((area) => area.state.toUpperCase()))];
  const point = zipPoint(zip);
  if (!point) return { pointer, message: `"base_zip" ${zip} is not a US ZIP the server's ZIP dataset lists` };
  if (states.includes(point.state)) return null;
  return { pointer, message: `"base_zip" ${zip} is in ${point.state}, not in a state served (${states.join(", ")})` };
}

/** The base a write leaves: the given one, else the current one while it lies in a state served, else the default. */
export function settledBaseZip(areas: readonly Area[], given?: string, current?: string): string | undefined {
  if (given !== undefined) return given;
  if (current !== undefined && !baseZipProblem(current, areas)) return current;
  return defaultBaseZip(areas);
}
