// Drive time to a job from geography: great-circle miles between ZIP centroids times a road circuity factor, at city,
// arterial and highway speeds, plus a start-up; pure, as it runs per candidate per quote. Only the look-ups that scan
// the dataset are cached (docs/decisions.md, "Where things are: bases and drive times").
import { LRUCache } from "lru-cache";
import { cityZips, milesBetween, sectionZips, stateZips, zipPoint, type ZipPoint } from "./zip-points.js";

/** The model's figures; their sources are in docs/decisions.md. */
export const driveModel = {
  circuity: 1.3,
  urbanMiles: 10,
  urbanMph: 30,
  arterialMiles: 40,
  arterialMph: 45,
  highwayMph: 60,
  startUpMinutes: 10,
  minRoadMiles: 1,
  maxMinutes: 660,
  unknownMinutes: 60,
} as const;

type Point = Pick<ZipPoint, "latitude" | "longitude">;

/** Whole minutes for a great-circle distance in miles: at least the start-up and a road mile, at most maxMinutes. */
export function driveMinutesForMiles(miles: number): number {
  const { circuity, urbanMiles, urbanMph, arterialMiles, arterialMph, highwayMph, startUpMinutes } = driveModel;
  const road = Math.max(driveModel.minRoadMiles, miles * circuity);
  const urban = Math.min(road, urbanMiles);
  const arterial = Math.min(road, arterialMiles) - urban;
  const highway = road - urban - arterial;
  const minutes = startUpMinutes + 60 * (urban / urbanMph + arterial / arterialMph + highway / highwayMph);
  return Math.min(driveModel.maxMinutes, Math.round(minutes));
}

function meanPoint(points: readonly Point[]): Point | undefined {
  if (!points.length) return undefined;
  return {
    latitude: points.reduce((sum, point) => sum + point.latitude, 0) / points.length,
    longitude: points.reduce((sum, point) => sum + point.longitude, 0) / points.length,
  };
}

const sections = new Map<string, Point | undefined>();

/** A ZIP's place: its own, else the mean of the ZIPs sharing its first three digits (its sectional centre). */
function placeOfZip(zip: string): Point | undefined {
  const known = zipPoint(zip);
  if (known) return known;
  const section = zip.slice(0, 3);
  if (!sections.has(section)) sections.set(section, meanPoint(sectionZips(section)));
  return sections.get(section);
}

/** Minutes between two ZIPs (or ZIP+4s), whole and symmetric; an unlisted ZIP sits at its sectional centre. */
export function driveMinutes(fromZip: string, toZip: string): number {
  const from = placeOfZip(fromZip.slice(0, 5));
  const to = placeOfZip(toZip.slice(0, 5));
  return from && to ? driveMinutesForMiles(milesBetween(from, to)) : driveModel.unknownMinutes;
}

const medians = new LRUCache<string, number>({ max: 20_000 });

/** The median drive from a ZIP to every ZIP of a state (the unknown drive for a state the dataset lacks). */
export function medianDriveMinutes(fromZip: string, state: string): number {
  const key = `${fromZip}:${state}`;
  let minutes = medians.get(key);
  if (minutes === undefined) {
    const from = placeOfZip(fromZip.slice(0, 5));
    const drives = from
      ? stateZips(state)
          .map((point) => driveMinutesForMiles(milesBetween(from, point)))
          .sort((a, b) => a - b)
      : [];
    minutes = drives.length ? drives[Math.floor(drives.length / 2)] : driveModel.unknownMinutes;
    medians.set(key, minutes);
  }
  return minutes;
}

export interface DriveTarget {
  state: string;
  zip?: string;
  city?: string;
}

/** Where a location without a listed ZIP is: its city's centre, else its ZIP's sectional centre (cached by name). */
const places = new LRUCache<string, { at?: Point }>({ max: 20_000 });

function placeOfLocation(state: string, city?: string, zip?: string): Point | undefined {
  const key = `${state}:${zip ?? ""}:${city ?? ""}`;
  let place = places.get(key);
  if (!place) {
    place = { at: (city ? meanPoint(cityZips(state, city)) : undefined) ?? (zip ? placeOfZip(zip) : undefined) };
    places.set(key, place);
  }
  return place.at;
}

/** Minutes from a ZIP to a job: its listed ZIP, else its city's centre, else its section, else the state's median. */
export function driveMinutesTo(fromZip: string, location: DriveTarget): number {
  const state = location.state.toUpperCase();
  const zip = location.zip?.slice(0, 5);
  if (zip && zipPoint(zip)) return driveMinutes(fromZip, zip);
  const from = placeOfZip(fromZip.slice(0, 5));
  const to = placeOfLocation(state, location.city, zip);
  return from && to ? driveMinutesForMiles(milesBetween(from, to)) : medianDriveMinutes(fromZip, state);
}
