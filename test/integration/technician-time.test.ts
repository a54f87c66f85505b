// Technicians' time (server/services/dispatch/technician-time.ts, bookings.ts, the technician_slots trigger), on every
// test database: a technician on a 4-hour job is not booked into the next window; one technician serving IL and IN
// is not booked into overlapping windows of the two zones (06:00 CST and 06:00 EST), its ETA at booking inside the
// window booked; a quote's windows are reachable and graded, losing a grade as technicians are taken; and the
// database itself refuses a technician's instant booked twice (technician_slots_taken, which isSeatTaken knows).
import assert from "node:assert/strict";
import { anchorageContractor } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { createDb } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";
import { isSeatTaken } from "../../server/services/dispatch/bookings.js";
import { storedOrder } from "../helpers/migrations.js";
import type { Schemas } from "../../server/types/contract.js";
import { driveMinutes, driveMinutesTo } from "../../server/services/dispatch/geo/drive.js";
import { defaultBaseZip } from "../../server/services/dispatch/geo/base-zip.js";

type S = Schemas;
interface Window {
  start: string;
  end: string;
}
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const always = [{ start: "00:00", end: "24:00" }];
const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const allWeek = Object.fromEntries(days.map((name) => [name, always])) as unknown as S["WorkingHours"];
const anchorage = { state: "AK", city: "Anchorage", zip: "99501" } as const;

/** The zone's UTC offset ("-06:00") around noon UTC of a date. */
function offsetOn(zone: string, date: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(Date.parse(`${date}T12:00:00Z`))
    .find((part) => part.type === "timeZoneName")!.value;
  return name === "GMT" ? "+00:00" : name.slice(3);
}

/** The two-hour window from `hh`:00 on a date of the zone's clock, written in its offset. */
function localWindow(zone: string, date: string, hh: number): Window {
  const offset = offsetOn(zone, date);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { start: `${date}T${pad(hh)}:00:00${offset}`, end: `${date}T${pad(hh + 2)}:00:00${offset}` };
}

async function addContractor(t: TestServer, body: Record<string, unknown>) {
  const response = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
    headers: { authorization: `Bearer ${adminToken}` },
    body,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as S["Contractor"];
}

interface Answer {
  status: number;
  body: {
    order: { id: string; created_at: string; assigned_contractor_ref?: string | null; arrival_window?: Window | null };
  } & {
    code?: string;
  };
}

let references = 0;
async function order(t: TestServer, key: string, job: Record<string, unknown>): Promise<Answer> {
  const body = { description: "Technician time test.", reference_id: `tt-${++references}`, ...job };
  const response = await postOrder(t, { "x-api-key": key }, body);
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

async function etaOf(t: TestServer, key: string, id: string): Promise<S["Eta"]> {
  const view = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
  return ((await view.json()) as S["OrderStatus"]).eta!;
}

async function quote(t: TestServer, key: string, job: Record<string, unknown>): Promise<S["Quote"]> {
  const response = await jsonRequest(t, "POST", "/api/dispatch/v1/quote", { headers: { "x-api-key": key }, body: job });
  assert.equal(response.status, 200);
  return (await response.json()) as S["Quote"];
}

for (const db of databases()) {
  describe(`technicians' time (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "technicians", environment: "live" })).key;
    });
    after(() => t?.stop());

    it("does not book a technician busy on a 4-hour job into the next window", async () => {
      await addContractor(t, {
        ...anchorageContractor("roofing", "One-crew Roofing"),
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 20 },
      });
      const job = { trade: "roofing", urgency: "scheduled", location: anchorage };
      const windows = (await quote(t, key, job)).arrival_windows ?? [];
      const [booked, next, after] = [windows[12], windows[13], windows[14]]; // a day ahead: the technician is free
      const first = await order(t, key, { ...job, arrival_window: { start: booked.start, end: booked.end } });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const eta = await etaOf(t, key, first.body.order.id);
      assert.equal(Date.parse(eta.estimated_arrival_at), Date.parse(booked.start));
      // busy from the drive before the window to 4 hours after its start: neither of the next two windows is reachable
      const open = ((await quote(t, key, job)).arrival_windows ?? []).map((w) => w.start);
      assert.ok(!open.includes(booked.start) && !open.includes(next.start), open.join(" "));
      const refused = await order(t, key, { ...job, arrival_window: { start: next.start, end: next.end } });
      assert.deepEqual([refused.status, refused.body.code], [409, "window_unavailable"]);
      // the window after (arrival 4 hours on plus the drive from the base) is reachable
      assert.ok(open.includes(after.start));
      const later = await order(t, key, { ...job, arrival_window: { start: after.start, end: after.end } });
      assert.equal(later.status, 201, JSON.stringify(later.body));
      const laterEta = Date.parse((await etaOf(t, key, later.body.order.id)).estimated_arrival_at);
      const drive = driveMinutesTo(defaultBaseZip([{ state: "AK", cities: ["Anchorage"] }])!, anchorage) * minute;
      assert.equal(laterEta, Math.ceil((Date.parse(booked.start) + 4 * hour + drive) / (5 * minute)) * 5 * minute);
      assert.ok(laterEta >= Date.parse(after.start) && laterEta <= Date.parse(after.end) - 15 * minute);
    });

    it("refuses one technician overlapping windows of two zones (IL 06:00 CST, IN 06:00 EST), ETAs inside", async () => {
      const contractor = await addContractor(t, {
        name: "Two-state Locks",
        trades: ["locksmith"],
        // Danville's and Lafayette's prefixes: no demo contractor covers them by ZIP, so this one ranks first in IL;
        // none serves IN. Based in Danville: 85 minutes' drive to West Lafayette (geo/drive.ts)
        service_areas: [
          { state: "IL", zip_prefixes: ["618"] },
          { state: "IN", zip_prefixes: ["479"] },
        ],
        base_zip: "61832",
        hourly_rate_cents: 9000,
        base_response_minutes: 60,
        emergency_capable: false,
        time_zone: "America/Chicago",
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 20 },
      });
      const now = Date.parse((await quote(t, key, { trade: "locksmith", location: { state: "IN" } })).created_at);
      const date = new Date(now + 2 * day).toISOString().slice(0, 10); // the business clock's (DISPATCH_TEST_NOW)
      const il = localWindow("America/Chicago", date, 6);
      const inWindow = localWindow("America/Indiana/Indianapolis", date, 6);
      const illinois = {
        trade: "locksmith",
        urgency: "scheduled",
        location: { state: "IL", city: "Danville", zip: "61832" },
      };
      const indiana = { ...illinois, location: { state: "IN", city: "West Lafayette", zip: "47906" } };
      const first = await order(t, key, { ...illinois, arrival_window: il });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.order.assigned_contractor_ref, contractor.ref);
      const firstEta = await etaOf(t, key, first.body.order.id);
      assert.deepEqual([Date.parse(firstEta.estimated_arrival_at), firstEta.source], [Date.parse(il.start), "window"]);
      // IN 06:00-08:00 EST is 05:00-07:00 CST: an arrival there would leave before the IL job ends
      const overlapping = await order(t, key, { ...indiana, arrival_window: inWindow });
      assert.deepEqual([overlapping.status, overlapping.body.code], [409, "window_unavailable"]);
      const [next] = [localWindow("America/Indiana/Indianapolis", date, 8)];
      const second = await order(t, key, { ...indiana, arrival_window: next });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      const eta = Date.parse((await etaOf(t, key, second.body.order.id)).estimated_arrival_at);
      // the IL job ends an hour after its 06:00 CST arrival (13:00 UTC); then the drive from the base
      assert.equal(eta, Date.parse(il.start) + (60 + driveMinutes("61832", "47906")) * minute);
      assert.ok(eta >= Date.parse(next.start) && eta <= Date.parse(next.end) - 15 * minute);
      const slots = await t.app.services.db("technician_slots").where({ contractor_id: contractor.id });
      assert.equal(new Set(slots.map((slot) => new Date(slot.slot_start).getTime())).size, slots.length);
    });

    it("quotes only windows a technician reaches, graded: high with two free, medium with one, gone with none", async () => {
      await addContractor(t, {
        ...anchorageContractor("painting", "Two-crew Painting"),
        working_hours: allWeek,
        capacity: { concurrent_jobs: 2, jobs_per_day: 20 },
      });
      const job = { trade: "painting", urgency: "scheduled", location: anchorage };
      const quoted = await quote(t, key, job);
      const windows = quoted.arrival_windows ?? [];
      const earliest = Date.parse(quoted.created_at) + quoted.estimated_response_minutes! * minute;
      for (const window of windows) {
        assert.ok(["high", "medium", "low"].includes(window.confidence), JSON.stringify(window));
        assert.ok(Date.parse(window.end) - 15 * minute >= earliest, `${window.start} ends before the quote's arrival`);
      }
      const target = windows[20];
      assert.equal(target.confidence, "high");
      const wanted = { start: target.start, end: target.end };
      const graded = async () =>
        ((await quote(t, key, job)).arrival_windows ?? []).find((w) => w.start === target.start)?.confidence;
      assert.equal((await order(t, key, { ...job, arrival_window: wanted })).status, 201);
      assert.equal(await graded(), "medium");
      assert.equal((await order(t, key, { ...job, arrival_window: wanted })).status, 201);
      assert.equal(await graded(), undefined);
    });
  });

  describe(`technician slots in the database (${db.name})`, function () {
    this.timeout(60_000);
    it("refuses a technician's instant booked twice, by a UNIQUE index isSeatTaken recognises", async () => {
      const created = await db.create();
      const store = createDb(created.url);
      try {
        await migrate(store);
        await store("contractors").insert({
          id: "ctr_slots",
          ref: "ctr_****lots",
          name: "Slots",
          trades: JSON.stringify(["locksmith"]),
          service_areas: JSON.stringify([{ state: "IL" }]),
          base_zip: "60601",
          hourly_rate_cents: 9000,
          base_response_minutes: 60,
          time_zone: "America/Chicago",
        });
        const orders = ["ord_a", "ord_b", "ord_c"].map((id) =>
          storedOrder(id, { environment: "live", key_id: "key_live", contractor_id: "ctr_slots" }),
        );
        await store("orders").insert(orders);
        const booking = (orderId: string, busyFrom: string, busyUntil: string, daySeat: number) => ({
          order_id: orderId,
          environment: "live" as const,
          contractor_id: "ctr_slots",
          window_start: "2026-12-01T12:00:00Z",
          window_end: "2026-12-01T14:00:00Z",
          seat: 0,
          local_day: "2026-12-01",
          day_seat: daySeat,
          arrival_at: busyFrom,
          busy_from: busyFrom,
          busy_until: busyUntil,
        });
        await store("contractor_bookings").insert(booking("ord_a", "2026-12-01T11:30:00Z", "2026-12-01T13:00:00Z", 0));
        assert.equal((await store("technician_slots").where({ order_id: "ord_a" })).length, 6);
        const overlap = await store("contractor_bookings")
          .insert(booking("ord_b", "2026-12-01T12:50:00Z", "2026-12-01T14:00:00Z", 1))
          .then(
            () => null,
            (error: unknown) => error,
          );
        assert.ok(overlap, "the overlapping booking is refused");
        assert.equal((overlap as { constraint?: string }).constraint, "technician_slots_taken");
        assert.ok(isSeatTaken(overlap));
        // back to back is fine; completing (seat null) or cancelling (delete) frees the slots
        await store("contractor_bookings").insert(booking("ord_b", "2026-12-01T13:00:00Z", "2026-12-01T14:00:00Z", 1));
        await store("contractor_bookings").where({ order_id: "ord_a" }).update({ seat: null });
        await store("contractor_bookings").where({ order_id: "ord_b" }).delete();
        assert.equal((await store("technician_slots")).length, 0);
        await store("contractor_bookings").insert(booking("ord_c", "2026-12-01T11:30:00Z", "2026-12-01T14:00:00Z", 2));
        assert.equal((await store("technician_slots")).length, 10);
      } finally {
        await store.destroy();
        await created.drop();
      }
    });
  });
}
