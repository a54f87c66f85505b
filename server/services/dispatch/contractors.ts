// The contractor pool: admin CRUD and the active candidates for a trade and state; every writer checks availability
// (working-hours.ts) and the base ZIP against the states served (geo/base-zip.ts, loaded with the first write).
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import type { ContractorRow, ContractorWrite } from "../../db/tables/dispatch.js";
import { DomainError } from "../errors.js";
import { createInvalidatedCache } from "../shared/cache.js";
import { maskRef, newId } from "../shared/ids.js";
import { stateTimeZone } from "./state-zones.js";
import type { TradeCode } from "./trades.js";
import { assertAvailability, storedTimeZone, fullWeek } from "./working-hours.js";
import type { Schemas } from "../../types/contract.js";

export type Contractor = Schemas["Contractor"];
/** A service area as given: the demo pool and fixture files spell states as plain strings, stored upper-cased. */
export type ServiceArea = Omit<Schemas["ServiceArea"], "state"> & { state: string };
export type ContractorInput = Omit<Schemas["ContractorInput"], "service_areas"> & { service_areas: ServiceArea[] };

/** The answer's form of a row: capacity as one object, the week in weekday order (jsonb keeps its keys sorted). */
function toContractor(row: ContractorRow): Contractor {
  const { working_hours, concurrent_jobs, jobs_per_day, created_at, ...rest } = row;
  return {
    ...rest,
    working_hours: fullWeek(working_hours),
    capacity: { concurrent_jobs, jobs_per_day },
    created_at: new Date(created_at).toISOString(),
  };
}

const upperAreas = (areas: ServiceArea[]) => areas.map((area) => ({ ...area, state: area.state.toUpperCase() }));

function toRow(input: Partial<ContractorInput>): ContractorWrite {
  const { trades, service_areas, time_zone, working_hours, capacity, ...scalars } = input;
  const row: ContractorWrite = { ...scalars };
  if (trades) row.trades = JSON.stringify(trades);
  if (service_areas) row.service_areas = JSON.stringify(upperAreas(service_areas));
  if (time_zone) row.time_zone = storedTimeZone(time_zone) ?? time_zone;
  if (working_hours) row.working_hours = JSON.stringify(fullWeek(working_hours));
  if (capacity) Object.assign(row, { concurrent_jobs: capacity.concurrent_jobs, jobs_per_day: capacity.jobs_per_day });
  return row;
}

const baseZips = () => import("./geo/base-zip.js");

/** The base a write stores (given, kept or defaulted); 422 naming `base_zip` when the areas' states do not hold it. */
async function checkedBaseZip(areas: ServiceArea[], given?: string, current?: string, pointer = "/base_zip") {
  const { baseZipProblem, settledBaseZip } = await baseZips();
  const zip = settledBaseZip(areas, given, current);
  const problem = zip
    ? baseZipProblem(zip, areas, pointer)
    : { pointer, message: `"base_zip" is required: the ZIP dataset has no ZIP in ${areas[0].state}` };
  if (problem) throw new DomainError("validation", "validation_failed", problem.message, { errors: [problem] });
  return zip!;
}

/** A new contractor's columns: checked, in its first service area's zone unless it names one, with its base. */
async function toNewRow(input: ContractorInput, pointer?: string): Promise<ContractorWrite> {
  assertAvailability(input);
  const row = toRow(input); // a named zone, stored canonical
  const base_zip = await checkedBaseZip(input.service_areas, input.base_zip, undefined, pointer);
  return { ...row, base_zip, time_zone: row.time_zone ?? stateTimeZone(input.service_areas[0].state) }; // minItems: 1
}

const serves = (contractor: Contractor, trade: TradeCode, state: string) =>
  contractor.trades.includes(trade) && contractor.service_areas.some((area) => area.state === state);

/** Each pool read's candidates by trade and state, worked out once (docs/decisions.md, "Scale"). */
const serving = new WeakMap<readonly Contractor[], Map<string, readonly Contractor[]>>();

function servingOf(pool: readonly Contractor[], trade: TradeCode, state: string): readonly Contractor[] {
  let byJob = serving.get(pool);
  if (!byJob) {
    byJob = new Map();
    serving.set(pool, byJob);
  }
  const key = `${trade}|${state}`;
  let candidates = byJob.get(key);
  if (!candidates) {
    candidates = pool.filter((contractor) => serves(contractor, trade, state));
    byJob.set(key, candidates);
  }
  return candidates;
}

/** A page of contractors by id; trade and state filter on the jsonb columns. */
async function listContractors(db: Db, filter: { trade?: string; state?: string; limit: number; cursor?: string }) {
  const query = db("contractors")
    .orderBy("id")
    .limit(filter.limit + 1);
  if (filter.trade) query.whereRaw("trades @> ?::jsonb", [JSON.stringify([filter.trade])]);
  if (filter.state)
    query.whereRaw("service_areas @> ?::jsonb", [JSON.stringify([{ state: filter.state.toUpperCase() }])]);
  if (filter.cursor) query.where("id", ">", filter.cursor);
  const rows = (await query).map(toContractor);
  const page = rows.slice(0, filter.limit);
  return { items: page, next_cursor: rows.length > filter.limit ? page.at(-1)!.id : null };
}

async function removeAllContractors(db: Db, feed: ChangeFeed | null): Promise<number> {
  const removed = await db("contractors").delete();
  feed?.announce("contractors");
  return removed;
}

const notFound = (id: string) => new DomainError("not_found", "not_found", `No contractor ${id}.`);

/** Changes the given fields (hours and capacity whole); 422 for a bad zone, hours or base, 404 for no such id. A change
 * of base or areas reads the row under its lock, so the base it stores lies in the areas it stores. */
async function updateContractor(db: Db, feed: ChangeFeed | null, id: string, patch: Partial<ContractorInput>) {
  assertAvailability(patch);
  const write = toRow(patch);
  const row = await db.transaction(async (trx) => {
    if (patch.base_zip !== undefined || patch.service_areas) {
      const current = await trx("contractors").where({ id }).forUpdate().first("service_areas", "base_zip");
      if (!current) throw notFound(id);
      const areas = patch.service_areas ? upperAreas(patch.service_areas) : current.service_areas;
      write.base_zip = await checkedBaseZip(areas, patch.base_zip, current.base_zip);
    }
    return (await trx("contractors").where({ id }).update(write).returning("*"))[0];
  });
  feed?.announce("contractors");
  if (!row) throw notFound(id);
  return toContractor(row);
}

export function createContractorService(db: Db, feed: ChangeFeed | null = null) {
  const pool = createInvalidatedCache<Contractor[]>(feed, "contractors", 60_000, 1);
  const activePool = () =>
    pool.get("active", async () => (await db("contractors").where({ active: true })).map(toContractor));
  return {
    async create(input: ContractorInput): Promise<Contractor> {
      const id = newId("ctr");
      const [row] = await db("contractors")
        .insert({ id, ref: maskRef(id), ...(await toNewRow(input)) })
        .returning("*");
      feed?.announce("contractors");
      return toContractor(row);
    },

    /** Adds many in one statement (the demo pool at start); their ids sort in the inputs' order, as one by one. */
    async createMany(inputs: ContractorInput[]): Promise<void> {
      if (!inputs.length) return;
      const ids = inputs.map(() => newId("ctr")).sort();
      const rows = await Promise.all(inputs.map((input, i) => toNewRow(input, `/${i}/base_zip`)));
      await db("contractors").insert(rows.map((row, i) => ({ id: ids[i], ref: maskRef(ids[i]), ...row })));
      feed?.announce("contractors");
    },

    /** Removes every contractor (the demo pool of a database restored from the build's snapshot, before serving). */
    removeAll: () => removeAllContractors(db, feed),

    update: (id: string, patch: Partial<ContractorInput>) => updateContractor(db, feed, id, patch),

    list: (filter: Parameters<typeof listContractors>[1]) => listContractors(db, filter),

    async candidates(trade: TradeCode, state: string): Promise<readonly Contractor[]> {
      const pool = await activePool();
      return pool ? servingOf(pool, trade, state.toUpperCase()) : [];
    },

    async hasActive(): Promise<boolean> {
      return ((await activePool()) ?? []).length > 0;
    },

    async get(id: string): Promise<Contractor | null> {
      const row = await db("contractors").where({ id }).first();
      return row ? toContractor(row) : null;
    },
  };
}

export type ContractorService = ReturnType<typeof createContractorService>;
