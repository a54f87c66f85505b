// Contractor availability through the admin operations, on every test database: created with and without
// time_zone, working_hours and capacity (the defaults: the state's zone, always working, the bounds' maxima),
// updated, listed; a zone Intl does not know, an interval ending before it starts, overlapping intervals and a
// capacity out of bounds are 422 naming the field, and nothing is stored.
import assert from "node:assert/strict";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import type { Schemas } from "../../server/types/contract.js";

type Contractor = Schemas["Contractor"];
interface Problem {
  status: number;
  code: string;
  errors?: { pointer: string; message: string }[];
}

const base = {
  name: "Availability Plumbing",
  trades: ["plumbing"],
  service_areas: [{ state: "IL", cities: ["Chicago"] }],
  hourly_rate_cents: 9000,
  base_response_minutes: 120,
} satisfies Schemas["ContractorInput"];
const weekday = [{ start: "07:00", end: "18:00" }];
const hours = { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday };
const always = [{ start: "00:00", end: "24:00" }];
const allWeek = { monday: always, tuesday: always, wednesday: always, thursday: always, friday: always };

for (const db of databases()) {
  describe(`contractor availability: admin operations (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const admin = async (path: string, method = "GET", body?: unknown) => {
      const response = await t.fetch(`${t.url}/api/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Contractor & Problem };
    };
    const named = async (name: string) =>
      ((await admin("/contractors?trade=plumbing&limit=200")).body as unknown as { items: Contractor[] }).items.filter(
        (c) => c.name === name,
      );

    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
    });
    after(() => t?.stop());

    it("creates without the new fields: the state's zone, always working, no practical capacity limit", async () => {
      const { status, body } = await admin("/contractors", "POST", { ...base, name: "Defaults Plumbing" });
      assert.equal(status, 201);
      assert.equal(body.time_zone, "America/Chicago");
      assert.deepEqual(body.working_hours, { ...allWeek, saturday: always, sunday: always });
      assert.deepEqual(body.capacity, { concurrent_jobs: 100, jobs_per_day: 1000 });
    });

    it("creates with them, fills the days left out, and the list shows them", async () => {
      const input = {
        ...base,
        name: "Hours Plumbing",
        time_zone: "america/new_york",
        working_hours: { ...hours, saturday: [{ start: "08:00", end: "12:00" }] },
        capacity: { concurrent_jobs: 3, jobs_per_day: 8 },
      };
      const { status, body } = await admin("/contractors", "POST", input);
      assert.equal(status, 201);
      assert.equal(body.time_zone, "America/New_York", "the canonical spelling");
      assert.deepEqual(body.working_hours, { ...input.working_hours, sunday: [] });
      assert.deepEqual(body.capacity, { concurrent_jobs: 3, jobs_per_day: 8 });
      const [listed] = await named("Hours Plumbing");
      assert.deepEqual(listed, body);
      // In weekday order, each interval start then end, whatever order the database keeps the keys in.
      const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
      assert.deepEqual(Object.keys(listed.working_hours), days);
      assert.deepEqual(Object.keys(listed.working_hours.monday[0]), ["start", "end"]);
    });

    it("updates zone, hours and capacity, each replacing the whole value", async () => {
      const { body: created } = await admin("/contractors", "POST", { ...base, name: "Update Plumbing" });
      const patch = {
        time_zone: "Asia/Kolkata",
        working_hours: { friday: [{ start: "22:00", end: "24:00" }], saturday: [{ start: "00:00", end: "06:00" }] },
        capacity: { concurrent_jobs: 1, jobs_per_day: 4 },
      };
      const { status, body } = await admin(`/contractors/${created.id}`, "PATCH", patch);
      assert.equal(status, 200);
      assert.equal(body.time_zone, "Asia/Kolkata");
      const off = { monday: [], tuesday: [], wednesday: [], thursday: [], sunday: [] };
      assert.deepEqual(body.working_hours, { ...off, ...patch.working_hours });
      assert.deepEqual(body.capacity, patch.capacity);
      assert.deepEqual((await named("Update Plumbing"))[0], body);
    });

    const refused = [
      { what: "a zone Intl does not know", body: { time_zone: "Mars/Olympus_Mons" }, pointer: "/time_zone" },
      { what: "a zone outside the pattern", body: { time_zone: "+05:30" }, pointer: "/time_zone" },
      {
        what: "an interval ending before it starts",
        body: { working_hours: { monday: [{ start: "17:00", end: "08:00" }] } },
        pointer: "/working_hours/monday/0/end",
      },
      {
        what: "an empty interval",
        body: { working_hours: { sunday: [{ start: "09:00", end: "09:00" }] } },
        pointer: "/working_hours/sunday/0/end",
      },
      {
        what: "overlapping intervals",
        body: {
          working_hours: {
            tuesday: [
              { start: "08:00", end: "12:00" },
              { start: "11:00", end: "15:00" },
            ],
          },
        },
        pointer: "/working_hours/tuesday/1/start",
      },
      {
        what: "a time out of range",
        body: { working_hours: { friday: [{ start: "24:00", end: "24:00" }] } },
        pointer: "/working_hours/friday/0/start",
      },
      {
        what: "capacity 0",
        body: { capacity: { concurrent_jobs: 0, jobs_per_day: 4 } },
        pointer: "/capacity/concurrent_jobs",
      },
      {
        what: "capacity over its maximum",
        body: { capacity: { concurrent_jobs: 2, jobs_per_day: 1001 } },
        pointer: "/capacity/jobs_per_day",
      },
      { what: "half a capacity", body: { capacity: { concurrent_jobs: 2 } }, pointer: "/capacity/jobs_per_day" },
    ];
    for (const { what, body, pointer } of refused) {
      it(`refuses ${what} with 422 naming ${pointer}, on create and on update, storing nothing`, async () => {
        const name = `Refused ${what}`;
        const created = await admin("/contractors", "POST", { ...base, name, ...body });
        assert.equal(created.status, 422);
        assert.equal(created.body.code, "validation_failed");
        assert.deepEqual(
          created.body.errors?.map((e) => e.pointer),
          [pointer],
        );
        assert.deepEqual(await named(name), []);
        const { body: existing } = await admin("/contractors", "POST", { ...base, name: `${name} (kept)` });
        const updated = await admin(`/contractors/${existing.id}`, "PATCH", body);
        assert.equal(updated.status, 422);
        assert.deepEqual(
          updated.body.errors?.map((e) => e.pointer),
          [pointer],
        );
        assert.deepEqual((await named(`${name} (kept)`))[0], existing);
      });
    }
  });
}
