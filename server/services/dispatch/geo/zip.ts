// US ZIP codes: a ZIP's state and coordinates from the `zipcodes` package's dataset, loaded with the first look-up
// (it is large). A ZIP it does not list is unknown: callers take that as "nothing known", never as wrong.
import type { ZipCode } from "zipcodes";

export interface ZipPlace {
  zip: string;
  /** Two-letter USPS code (states, DC and territories). */
  state: string;
  latitude: number;
  longitude: number;
}

type Dataset = typeof import("zipcodes");
let dataset: Promise<Dataset> | undefined;
// The package is CommonJS: its exports arrive as the module's default.
const load = () => (dataset ??= import("zipcodes").then((m) => (m as { default?: Dataset }).default ?? m));

/** The place of a 5-digit ZIP or ZIP+4 (`78701`, `78701-1234`), or null when the dataset has no US entry for it. */
export async function zipPlace(zip: string): Promise<ZipPlace | null> {
  const five = /^[0-9]{5}/.exec(zip)?.[0];
  if (!five) return null;
  const entry: ZipCode | undefined = (await load()).lookup(five);
  if (entry?.country !== "US") return null;
  return { zip: five, state: entry.state, latitude: entry.latitude, longitude: entry.longitude };
}
