// The seeded day as the offline optimum reads it (bench/dispatch-day/optimum-input.ts): minutes from the first
// order, matches within the NTE with the response and our planned drive, the field's drive and work, and each
// contractor's working intervals and local days.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { optimumInput } from "../../../bench/dispatch-day/optimum-input.js";
import type { World } from "../../../bench/dispatch-day/simulate.js";
import type { DayOrder } from "../../../bench/dispatch-day/world.js";
import type { Contractor } from "../../../server/services/dispatch/contractors.js";
import { travelMinutes, travelReady } from "../../../server/services/dispatch/travel.js";
import { fullWeek, weekdayHours } from "../../../server/services/dispatch/working-hours.js";

const t0 = Date.parse("2026-12-01T16:00:00Z"); // 10:00 in Chicago, a Tuesday
const min = 60_000;

const contractor = (id: string, over: Partial<Contractor> = {}): Contractor =>
  ({
    id,
    name: `Shop ${id}`,
    trades: ["plumbing"],
    service_areas: [{ state: "IL" }],
    hourly_rate_cents: 10_000,
    base_response_minutes: 120,
    emergency_capable: false,
    time_zone: "America/Chicago",
    working_hours: fullWeek(weekdayHours("08:00", "18:00")),
    capacity: { concurrent_jobs: 2, jobs_per_day: 6 },
    base_zip: "60601",
    ...over,
  }) as unknown as Contractor;

const order = (index: number, urgency: DayOrder["urgency"], at: number): DayOrder => ({
  index,
  at,
  trade: "plumbing",
  urgency,
  location: { state: "IL", city: "Springfield", zip: "62701", address: "1 Main St" },
  nteFactor: null,
  travelMinutes: 25,
  workMinutes: 100,
  invoiceFactor: 1,
});

describe("the offline optimum's input (bench/dispatch-day/optimum-input.ts)", () => {
  it("gives minutes from the first order, the field's drive and work, and the matches within the NTE", async () => {
    const cheap = contractor("ctr_a");
    const dear = contractor("ctr_b", { hourly_rate_cents: 30_000, base_response_minutes: 60 });
    const unused = contractor("ctr_c", { trades: ["roofing"] });
    const first = order(0, "urgent", t0);
    const second = order(1, "routine", t0 + 30 * min);
    const world: World = {
      contractors: [cheap, dear, unused],
      orders: [first, second],
      nte: new Map([[second, 40_000]]), // under the dear shop's price, over the cheap one's
    };
    const input = await optimumInput(world);
    await travelReady();
    const drive = travelMinutes({ contractor: cheap }, { state: "IL", zip: "62701", city: "Springfield" });
    assert.ok(drive > 60, `Chicago to Springfield is a long drive, not ${drive} minutes`);
    assert.deepEqual(input.orders, [
      {
        index: 0,
        urgency: "urgent",
        at: 0,
        deadline: 120,
        drive: 25,
        work: 100,
        plannedWork: 120, // plumbing's billed two hours
        matches: [
          { c: "ctr_b", response: 30, geo: drive }, // faster response ranks first; half of it for urgent work
          { c: "ctr_a", response: 60, geo: drive },
        ],
      },
      {
        index: 1,
        urgency: "routine",
        at: 30,
        deadline: 30 + 24 * 60,
        drive: 25,
        work: 100,
        plannedWork: 120,
        matches: [{ c: "ctr_a", response: 120, geo: drive }],
      },
    ]);
    assert.deepEqual(
      input.contractors.map((c) => c.id),
      ["ctr_a", "ctr_b"],
    );
    const shop = input.contractors[0];
    assert.deepEqual([shop.name, shop.k, shop.perDay], ["Shop ctr_a", 2, 6]);
    // Tuesday 08:00–18:00 in Chicago is 14:00–24:00 UTC: from 120 minutes before the first order to 480 after
    assert.ok(shop.hours.some(([start, end]) => start === -120 && end === 480));
    // Tuesday starts at 06:00 UTC in Chicago, 600 minutes before the first order; Wednesday a day later
    const tuesday = shop.dayStarts.findIndex(([, date]) => date === "2026-12-01");
    assert.deepEqual(shop.dayStarts.slice(tuesday, tuesday + 2), [
      [-600, "2026-12-01"],
      [840, "2026-12-02"],
    ]);
  });
});

/** Whether python3 with OR-Tools is here: the optimum is a hand-run tool, not a dependency of the product. */
const hasOrTools = () => spawnSync("python3", ["-c", "import ortools"], { stdio: "ignore" }).status === 0;

describe("the offline optimum (bench/dispatch-day/optimum.py)", function () {
  this.timeout(60_000);
  before(function () {
    if (!hasOrTools()) this.skip(); // pip install ortools==9.15.6755 runs it
  });

  /** Orders on site by their deadline at the optimum, for two urgent orders at once on one shop. */
  async function served(over: Partial<Contractor>, floor: "drive" | "response") {
    const world: World = {
      contractors: [contractor("ctr_a", over)],
      orders: [order(0, "urgent", t0), order(1, "urgent", t0)],
      nte: new Map(),
    };
    const file = join(mkdtempSync(join(tmpdir(), "optimum-")), "day.json");
    writeFileSync(file, JSON.stringify(await optimumInput(world)));
    const script = join(import.meta.dirname, "../../../bench/dispatch-day/optimum.py");
    const out = execFileSync("python3", [script, file, "--floor", floor, "--seconds", "10"], { encoding: "utf8" });
    const match = /\((\d+) of 2\); upper bound (\d+) .*; optimal;/.exec(out);
    assert.ok(match, out);
    assert.equal(match[2], match[1], "proven optimal: the bound is the answer");
    return Number(match[1]);
  }

  it("serves what technicians, day seats and the response allow, and no more", async () => {
    // each job holds its technician 25 + 100 minutes: one technician reaches one of the two by 120 minutes
    assert.equal(await served({ capacity: { concurrent_jobs: 1, jobs_per_day: 6 } }, "drive"), 1);
    assert.equal(await served({ capacity: { concurrent_jobs: 2, jobs_per_day: 6 } }, "drive"), 2);
    assert.equal(await served({ capacity: { concurrent_jobs: 2, jobs_per_day: 1 } }, "drive"), 1);
    // 60 minutes of urgent response still arrives by 120; 150 never does, though the drive alone would
    assert.equal(await served({ capacity: { concurrent_jobs: 2, jobs_per_day: 6 } }, "response"), 2);
    assert.equal(await served({ base_response_minutes: 300 }, "response"), 0);
    assert.equal(await served({ base_response_minutes: 300 }, "drive"), 2);
  });
});
