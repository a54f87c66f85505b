// The `zipcodes` dataset's US entries for synchronous look-ups by ZIP, state, city and prefix. Importing this module
// loads the dataset (measured in docs/decisions.md, "Where things are"); zip.ts stays lazy for a job's ZIP check.
import zipcodes from "zipcodes";

export interface ZipPoint {
  zip: string;
  state: string;
  city: string;
  latitude: number;
  longitude: number;
}

const byZip = new Map<string, ZipPoint>();
const byState = new Map<string, ZipPoint[]>();
for (const entry of Object.values(zipcodes.codes)) {
  if (entry.country !== "US") continue;
  const point = {
    zip: entry.zip,
    state: entry.state,
    city: entry.city,
    latitude: entry.latitude,
    longitude: entry.longitude,
  };
  byZip.set(point.zip, point);
  const list = byState.get(point.state) ?? [];
  if (!list.length) byState.set(point.state, list);
  list.push(point);
}

export const zipPoint = (zip: string): ZipPoint | undefined => byZip.get(zip);

/** A state's ZIPs (two-letter code, upper case); empty for a code the dataset does not know. */
export const stateZips = (state: string): readonly ZipPoint[] => byState.get(state) ?? [];

/** A state's ZIPs in a city, its name compared without letter case. */
export function cityZips(state: string, city: string): ZipPoint[] {
  const name = city.trim().toUpperCase();
  return stateZips(state).filter((point) => point.city.toUpperCase() === name);
}

/** A state's ZIPs starting with a prefix of 3 to 5 digits. */
export const prefixZips = (state: string, prefix: string): ZipPoint[] =>
  stateZips(state).filter((point) => point.zip.startsWith(prefix));

/** The dataset's ZIPs whose first three digits (the sectional centre) are a ZIP's, in any state. */
export function sectionZips(zip: string): ZipPoint[] {
  const section = zip.slice(0, 3);
  return [...byState.values()].flatMap((points) => points.filter((point) => point.zip.startsWith(section)));
}

const radians = Math.PI / 180;
const earthRadiusMiles = 3958.8;

type Position = Pick<ZipPoint, "latitude" | "longitude">;

/** Great-circle (haversine) distance in miles. */
export function milesBetween(from: Position, to: Position): number {
  const dLat = (to.latitude - from.latitude) * radians;
  const dLon = (to.longitude - from.longitude) * radians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * radians) * Math.cos(to.latitude * radians) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusMiles * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point among `points` nearest their mean position (ties: the lower ZIP); undefined for none. */
export function centralZip(points: readonly ZipPoint[]): ZipPoint | undefined {
  if (!points.length) return undefined;
  const centre = {
    latitude: points.reduce((sum, point) => sum + point.latitude, 0) / points.length,
    longitude: points.reduce((sum, point) => sum + point.longitude, 0) / points.length,
  };
  let best = points[0];
  let bestMiles = Infinity;
  for (const point of points) {
    const miles = milesBetween(point, centre);
    if (miles < bestMiles || (miles === bestMiles && point.zip < best.zip)) [best, bestMiles] = [point, miles];
  }
  return best;
}

const principal = new Map<string, ZipPoint | undefined>();

/** A state's principal ZIP: the central ZIP of its city with the most ZIPs (ties: the city first by name). */
export function principalZip(state: string): ZipPoint | undefined {
  if (!principal.has(state)) {
    const cities = new Map<string, ZipPoint[]>();
    for (const point of stateZips(state)) {
      const list = cities.get(point.city) ?? [];
      if (!list.length) cities.set(point.city, list);
      list.push(point);
    }
    const [largest] = [...cities.entries()].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1));
    principal.set(state, largest && centralZip(largest[1]));
  }
  return principal.get(state);
}
