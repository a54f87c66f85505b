// Arrival windows and capacity (server/services/dispatch/arrival-windows.ts, bookings.ts), on every test database:
// a quote lists the windows its pool really works (weekday hours in Anchorage: none on a day off, each in the offset
// of its date), an order books the window it asks for (in rank order) or else by the booking rule (an emergency in
// rank order, other urgencies the earliest window of any match, within the NTE first), a full window is 409 naming
// it and frees again on cancel, a window off the grid (by any fraction of a second) is 422 naming the field,
// concurrent orders never book a
// contractor past its concurrent_jobs or jobs_per_day, and an operator's assignment answers 409 when the named
// contractor is full. Each test uses its own trade in Alaska, where the demo pool has nobody, so its contractors are the only matches.
import assert from "node:assert/strict";
import { fulfilmentDeadlineMinutes } from "../../server/services/dispatch/fulfilment-deadline.js";
import { anchorageContractor, anchorageWindow } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import {
  adminToken,
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type TestServer,
} from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import type { Schemas } from "../../server/types/contract.js";
import { driveMinutesTo } from "../../server/services/dispatch/geo/drive.js";
import { defaultBaseZip } from "../../server/services/dispatch/geo/base-zip.js";
import { expectedWorkMinutes } from "../../server/services/dispatch/technician-time.js";

type S = Schemas;
type Window = S["ArrivalWindow"];
const zone = "America/Anchorage";
const location = { state: "AK", city: "Anchorage", zip: "99501" } as const;
const hour = 3_600_000;
const always = [{ start: "00:00", end: "24:00" }];
const allWeek = {
  monday: always,
  tuesday: always,
  wednesday: always,
  thursday: always,
  friday: always,
  saturday: always,
  sunday: always,
};
const mornings = [{ start: "08:00", end: "12:00" }];
const weekdayMornings = {
  monday: mornings,
  tuesday: mornings,
  wednesday: mornings,
  thursday: mornings,
  friday: mornings,
};

async function addContractor(t: TestServer, trade: S["TradeCode"], availability: Partial<S["ContractorInput"]>) {
  const response = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
    headers: { authorization: `Bearer ${adminToken}` },
    body: { ...anchorageContractor(trade, `Windows ${trade}`), ...availability },
  });
  assert.equal(response.status, 201);
  return (await response.json()) as S["Contractor"];
}

async function quote(t: TestServer, key: string, trade: S["TradeCode"], urgency: S["Urgency"]) {
  const response = await jsonRequest(t, "POST", "/api/dispatch/v1/quote", {
    headers: { "x-api-key": key },
    body: { trade, location, urgency },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as S["Quote"];
}

interface OrderAnswer {
  status: number;
  body: {
    order: { id: string; created_at: string; arrival_window?: Window | null; assigned_contractor_ref?: string | null };
    fulfilment?: { reason: string };
  } & {
    code?: string;
    detail?: string;
    errors?: { pointer: string; message: string }[];
  };
}
let references = 0;
async function order(
  t: TestServer,
  key: string,
  job: { trade: S["TradeCode"]; urgency: S["Urgency"]; arrival_window?: Window; nte_cents?: number },
): Promise<OrderAnswer> {
  const body = { ...job, location, description: "Arrival window test.", reference_id: `aw-${++references}` };
  const response = await postOrder(t, { "x-api-key": key }, body);
  return { status: response.status, body: (await response.json()) as OrderAnswer["body"] };
}

/** The zone's offset at an instant as Intl writes it ("-08:00"), independent of the server's calendar maths. */
function intlOffset(at: number): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")!.value;
  return name === "GMT" ? "+00:00" : name.slice(3);
}

/** A quoted window as an order shows it: its start and end, without the quote's confidence. */
const plain = (window: Window) => ({ start: window.start, end: window.end });
const minute = 60_000;

/** The weekday-morning windows (08–10, 10–12 Anchorage time, Monday to Friday) a quote at `now` must list: those a
 * technician responding in `responseMinutes` reaches 15 minutes before their end. */
function expectedMornings(now: number, horizon: number, responseMinutes: number): string[] {
  const starts: string[] = [];
  for (let day = now - 48 * hour; day < now + horizon + 48 * hour; day += 24 * hour) {
    const date = new Date(day).toISOString().slice(0, 10);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (const hh of ["08", "10"]) {
      const text = ["-09:00", "-08:00"]
        .map((offset) => `${date}T${hh}:00:00${offset}`)
        .find((candidate) => candidate.endsWith(intlOffset(Date.parse(candidate))))!;
      const start = Date.parse(text);
      const reachable =
        start + 2 * hour - 15 * minute >= Math.ceil((now + responseMinutes * minute) / (5 * minute)) * 5 * minute;
      if (reachable && start < now + horizon) starts.push(text);
    }
  }
  return [...new Set(starts)].sort((a, b) => Date.parse(a) - Date.parse(b));
}

/** The order's ETA (ms), read from its view. */
async function etaOf(t: TestServer, key: string, answer: OrderAnswer): Promise<number> {
  const view = await t.fetch(`${t.url}/api/dispatch/v1/orders/${answer.body.order.id}`, {
    headers: { "x-api-key": key },
  });
  return Date.parse(((await view.json()) as S["OrderStatus"]).eta!.estimated_arrival_at);
}

const bookingsOf = (t: TestServer, contractorId: string) =>
  t.app.services.db("contractor_bookings").where({ contractor_id: contractorId });

/** The most bookings that share a key (a window, a day). */
function most<T>(rows: T[], keyOf: (row: T) => string): number {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(keyOf(row), (counts.get(keyOf(row)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}
const windowOf = (row: { window_start: Date | string }) => String(new Date(row.window_start).getTime());
const dayOf = (row: { local_day: string | Date }) => String(row.local_day);

for (const db of databases()) {
  describe(`arrival windows and capacity (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "windows", environment: "live" })).key;
    });
    after(() => t?.stop());

    it("quotes the windows the pool works: weekday mornings only, each in its date's offset", async () => {
      await addContractor(t, "painting", {
        working_hours: weekdayMornings,
        capacity: { concurrent_jobs: 2, jobs_per_day: 10 },
      });
      const answer = await quote(t, key, "painting", "scheduled");
      const now = Date.parse(answer.created_at);
      const windows = answer.arrival_windows ?? [];
      assert.deepEqual(
        windows.map((window) => window.start),
        expectedMornings(now, 14 * 24 * hour, answer.estimated_response_minutes!),
      );
      for (const window of windows) {
        assert.equal(Date.parse(window.end) - Date.parse(window.start), 2 * hour);
        assert.ok(window.start.endsWith(intlOffset(Date.parse(window.start))), window.start);
        assert.ok(window.end.endsWith(intlOffset(Date.parse(window.end))), window.end);
      }
      // Routine work sees the same mornings, for three days only.
      const routine = await quote(t, key, "painting", "routine");
      assert.deepEqual(
        (routine.arrival_windows ?? []).map((window) => window.start),
        expectedMornings(Date.parse(routine.created_at), 3 * 24 * hour, routine.estimated_response_minutes!),
      );
    });

    it("books a requested window, shows it on the order, answers 409 naming it once full, and frees it on cancel", async () => {
      const windows = (await quote(t, key, "painting", "scheduled")).arrival_windows ?? [];
      const wanted = windows[1];
      const first = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window: wanted });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual(first.body.order.arrival_window, plain(wanted));
      const view = await t.fetch(`${t.url}/api/dispatch/v1/orders/${first.body.order.id}`, {
        headers: { "x-api-key": key },
      });
      assert.deepEqual(((await view.json()) as S["OrderStatus"]).arrival_window, plain(wanted));
      const second = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window: wanted });
      assert.equal(second.status, 201); // concurrent_jobs: 2
      const third = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window: wanted });
      assert.equal(third.status, 409);
      assert.equal(third.body.code, "window_unavailable");
      assert.ok(third.body.detail?.includes(wanted.start), third.body.detail);
      assert.match(third.body.detail ?? "", / is full: its seats \(capacity\.concurrent_jobs\)/);
      const open = async () =>
        ((await quote(t, key, "painting", "scheduled")).arrival_windows ?? []).map((w) => w.start);
      assert.ok(!(await open()).includes(wanted.start));
      const cancel = await jsonRequest(t, "POST", `/api/dispatch/v1/orders/${first.body.order.id}/cancel`, {
        headers: { "x-api-key": key },
        body: { reason: "customer_request" },
      });
      assert.equal(cancel.status, 200);
      assert.ok((await open()).includes(wanted.start));
    });

    it("expects the contractor at the start of a window booked days ahead (eta source window), then frees it", async () => {
      const windows = (await quote(t, key, "painting", "scheduled")).arrival_windows ?? [];
      const later = windows.at(-1)!;
      const booked = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window: later });
      assert.equal(booked.status, 201, JSON.stringify(booked.body));
      const id = booked.body.order.id;
      const view = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
      const { eta } = (await view.json()) as S["OrderStatus"];
      assert.equal(eta?.source, "window");
      assert.equal(Date.parse(eta?.estimated_arrival_at ?? ""), Date.parse(later.start));
      const cancel = await jsonRequest(t, "POST", `/api/dispatch/v1/orders/${id}/cancel`, {
        headers: { "x-api-key": key },
        body: { reason: "customer_request" },
      });
      assert.equal(cancel.status, 200);
    });

    it("answers 409 naming a requested window when nobody serves the job, instead of waiting for another", async () => {
      const [wanted] = (await quote(t, key, "painting", "scheduled")).arrival_windows ?? []; // AK's grid
      const refused = await order(t, key, { trade: "electrical", urgency: "scheduled", arrival_window: wanted });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.code, "window_unavailable");
      assert.ok(refused.body.detail?.includes(wanted.start), refused.body.detail);
      assert.match(refused.body.detail ?? "", / cannot be booked: no active contractor serves this job;/);
      // Without a window the same job waits for a contractor (202), as before.
      const waiting = await order(t, key, { trade: "electrical", urgency: "scheduled" });
      assert.equal(waiting.status, 202);
    });

    it("says why a window of the grid cannot be booked: passed, beyond the horizon, outside the pool's hours", async () => {
      // painting in Anchorage: the contractor of the first test, weekday mornings only
      const now = Date.parse((await quote(t, key, "painting", "scheduled")).created_at);
      const day = 24 * hour;
      const cases: [string, S["Urgency"], Window, RegExp][] = [
        [
          "three days ago",
          "scheduled",
          anchorageWindow(now - 3 * day, "10"),
          / has passed \(a window can be booked until 30 minutes before its end\)/,
        ],
        [
          "a year ahead",
          "scheduled",
          anchorageWindow(now + 365 * day, "10"),
          / is beyond the scheduled horizon: scheduled work books windows starting in the next 14 days \(before [-0-9T:]+\);/,
        ],
        [
          "six days ahead, routine",
          "routine",
          anchorageWindow(now + 6 * day, "10"),
          / is beyond the routine horizon: routine work books windows starting in the next 3 days \(before [-0-9T:]+\), scheduled work up to 14 days ahead;/,
        ],
        [
          "an afternoon",
          "scheduled",
          anchorageWindow(now + 2 * day, "14"),
          / is outside the working hours of every contractor that serves this job;/,
        ],
      ];
      for (const [what, urgency, window, why] of cases) {
        const refused = await order(t, key, { trade: "painting", urgency, arrival_window: window });
        assert.equal(refused.status, 409, `${what}: ${JSON.stringify(refused.body)}`);
        assert.equal(refused.body.code, "window_unavailable");
        assert.ok(refused.body.detail?.includes(window.start), refused.body.detail);
        assert.match(refused.body.detail ?? "", why, what);
      }
    });

    it("answers 422 naming the field for a window off the grid", async () => {
      const [window] = (await quote(t, key, "painting", "scheduled")).arrival_windows ?? [];
      const later = (text: string, hours: number) => new Date(Date.parse(text) + hours * hour).toISOString();
      const odd = await order(t, key, {
        trade: "painting",
        urgency: "scheduled",
        arrival_window: { start: later(window.start, 1), end: later(window.end, 1) },
      });
      assert.equal(odd.status, 422);
      assert.deepEqual(
        odd.body.errors?.map((error) => error.pointer),
        ["/arrival_window/start"],
      );
      const long = await order(t, key, {
        trade: "painting",
        urgency: "scheduled",
        arrival_window: { start: window.start, end: later(window.end, 1) },
      });
      assert.equal(long.status, 422);
      assert.deepEqual(
        long.body.errors?.map((error) => error.pointer),
        ["/arrival_window/end"],
      );
      // the start it names is the one sent, and the end it asks for two hours after it
      assert.equal(
        long.body.errors?.[0].message,
        `"end" (${later(window.end, 1)}) must be two hours after "start" (${window.start}), at ${window.end}.`,
      );
    });

    it("answers 422 for a start or end off the grid below the millisecond, and books the window itself for zeros", async () => {
      const [window] = (await quote(t, key, "painting", "scheduled")).arrival_windows ?? [];
      const fraction = (text: string, digits: string) => text.replace(/(T\d\d:\d\d:\d\d)/, `$1.${digits}`);
      for (const [arrival_window, pointer] of [
        [{ start: fraction(window.start, "000000001"), end: window.end }, "/arrival_window/start"],
        [{ start: window.start, end: fraction(window.end, "0000001") }, "/arrival_window/end"],
      ] as const) {
        const refused = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window });
        assert.equal(refused.status, 422, JSON.stringify(refused.body));
        assert.deepEqual(
          refused.body.errors?.map((error) => error.pointer),
          [pointer],
        );
      }
      const zeros = { start: fraction(window.start, "000000000"), end: fraction(window.end, "000") };
      const booked = await order(t, key, { trade: "painting", urgency: "scheduled", arrival_window: zeros });
      assert.equal(booked.status, 201, JSON.stringify(booked.body));
      assert.deepEqual(booked.body.order.arrival_window, plain(window));
    });

    // The technician of the first 4-hour carpentry job is busy through the next window: the second job books the
    // first window it can reach after that job and the drive (before technicians' time, it took the next window).
    it("books the earliest open window without one, then the first its technician reaches after that job", async () => {
      await addContractor(t, "carpentry", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 50 },
      });
      const windows = (await quote(t, key, "carpentry", "routine")).arrival_windows ?? [];
      const first = await order(t, key, { trade: "carpentry", urgency: "routine" });
      assert.equal(first.status, 201);
      assert.deepEqual(first.body.order.arrival_window, plain(windows[0]));
      const second = await order(t, key, { trade: "carpentry", urgency: "routine" });
      assert.equal(second.status, 201);
      const [firstEta, secondEta] = await Promise.all([etaOf(t, key, first), etaOf(t, key, second)]);
      // 4 hours' work, then the drive from the contractor's base (geo/drive.ts)
      const drive = driveMinutesTo(defaultBaseZip([{ state: "AK", cities: ["Anchorage"] }])!, location) * minute;
      assert.ok(
        secondEta >= firstEta + 4 * hour + drive,
        `${new Date(firstEta).toISOString()} then ${new Date(secondEta).toISOString()}`,
      );
      assert.notEqual(second.body.order.arrival_window?.start, windows[1].start);
      for (const answer of [first, second]) {
        const { start, end } = answer.body.order.arrival_window!;
        const eta = await etaOf(t, key, answer);
        assert.ok(
          eta >= Date.parse(start) && eta <= Date.parse(end) - 15 * minute,
          `${start} ${new Date(eta).toISOString()}`,
        );
      }
    });

    it("books every urgency, an emergency too, at the earliest arrival of any match", async () => {
      const fast = await addContractor(t, "plumbing", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 50 },
        base_response_minutes: 30,
      });
      const slow = await addContractor(t, "plumbing", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 2, jobs_per_day: 50 },
        base_response_minutes: 120,
      });
      const quoted = await quote(t, key, "plumbing", "urgent");
      const windows = quoted.arrival_windows ?? [];
      // The requested window goes to the first in rank order: the fast contractor's first window is now full.
      const requested = await order(t, key, { trade: "plumbing", urgency: "urgent", arrival_window: windows[0] });
      assert.equal(requested.body.order.assigned_contractor_ref, fast.ref);
      const booked = async (urgency: S["Urgency"]) => {
        const { body } = await order(t, key, { trade: "plumbing", urgency });
        return {
          ref: body.order.assigned_contractor_ref,
          start: body.order.arrival_window?.start,
          at: body.order.created_at,
        };
      };
      // urgent: the slow contractor's first window it reaches (an hour's response from the order, not the quote: a
      // window's end may pass in between), before the fast one's next (its technician busy two hours on the first
      // job, then a 30-minute drive)
      const urgent = await booked("urgent");
      const slowReaches = Date.parse(windows[0].end) - 15 * minute >= Date.parse(urgent.at) + 60 * minute;
      assert.deepEqual([urgent.ref, urgent.start], [slow.ref, (slowReaches ? windows[0] : windows[1]).start]);
      // emergency: the earliest arrival among capable contractors: the slow contractor's second technician (its
      // response quartered for an emergency), not the fast responder whose only technician is on the first job
      assert.equal((await booked("emergency")).ref, slow.ref);
    });

    it("books the earliest window among the matches within the NTE before an earlier one over it, and a routine job without an NTE with the best-ranked match by its deadline", async () => {
      const cheap = await addContractor(t, "appliance_repair", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 50 },
        base_response_minutes: 30,
        hourly_rate_cents: 8000,
      });
      // the dear contractor: free earlier, priced over the NTE below
      await addContractor(t, "appliance_repair", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 50 },
        base_response_minutes: 120,
        hourly_rate_cents: 12_000,
      });
      const priced = await quote(t, key, "appliance_repair", "routine");
      const windows = priced.arrival_windows ?? [];
      const first = await order(t, key, { trade: "appliance_repair", urgency: "routine", arrival_window: windows[0] });
      const within = await order(t, key, {
        trade: "appliance_repair",
        urgency: "routine",
        nte_cents: priced.estimated_cost_cents!,
      });
      assert.equal(within.status, 201);
      assert.equal(within.body.order.assigned_contractor_ref, cheap.ref);
      // the cheap contractor's one technician, after its first job's work and the drive from its base (arrivals on
      // 5-minute steps): the first quoted window that arrival falls in (the same window when the first job leaves
      // time for it, else a later one)
      const drive = driveMinutesTo(defaultBaseZip([{ state: "AK", cities: ["Anchorage"] }])!, location) * minute;
      const work = expectedWorkMinutes("appliance_repair") * minute;
      const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step; // busy time on 15-minute slots
      const free = ceilTo(ceilTo((await etaOf(t, key, first)) + work, 15 * minute) + drive, 5 * minute);
      const expected = windows.find((w) => Date.parse(w.end) - 15 * minute >= free)!;
      assert.equal(within.body.order.arrival_window?.start, expected.start);
      const eta = await etaOf(t, key, within);
      assert.ok(eta >= free && eta <= Date.parse(expected.end) - 15 * minute, new Date(eta).toISOString());
      // without an NTE, a routine job goes to the best-ranked match arriving by its deadline (the cheap contractor,
      // the faster responder, once its technician is free again), not the dear one's earlier window
      const unbounded = await order(t, key, { trade: "appliance_repair", urgency: "routine" });
      const freeAgain = ceilTo(ceilTo(eta + work, 15 * minute) + drive, 5 * minute);
      const next = windows.find((w) => Date.parse(w.end) - 15 * minute >= freeAgain)!;
      assert.deepEqual(
        [unbounded.body.order.assigned_contractor_ref, unbounded.body.order.arrival_window?.start],
        [cheap.ref, next.start],
      );
    });

    it("spares the contractors that take emergencies: urgent and routine work go to one that takes none when it arrives by the deadline", async () => {
      const outfit = await addContractor(t, "locksmith", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 2, jobs_per_day: 50 },
        base_response_minutes: 30,
      });
      const shops = [60, 120].map((base_response_minutes) =>
        addContractor(t, "locksmith", {
          working_hours: allWeek,
          capacity: { concurrent_jobs: 1, jobs_per_day: 50 },
          base_response_minutes,
          emergency_capable: false,
        }),
      );
      const [quick, slow] = await Promise.all(shops);
      const booked = async (urgency: S["Urgency"]) => {
        const answer = await order(t, key, { trade: "locksmith", urgency });
        const deadline = Date.parse(answer.body.order.created_at) + fulfilmentDeadlineMinutes[urgency] * minute;
        return { ref: answer.body.order.assigned_contractor_ref, eta: await etaOf(t, key, answer), deadline };
      };
      // urgent: the outfit would arrive first (15 minutes), the quick shop arrives by the 2-hour deadline (30)
      const urgent = await booked("urgent");
      assert.equal(urgent.ref, quick.ref);
      assert.ok(urgent.eta <= urgent.deadline, "by the urgent deadline");
      // an emergency goes to those that take emergencies only: the outfit, free for it
      assert.equal((await booked("emergency")).ref, outfit.ref);
      // routine: a shop arriving by its 24-hour deadline, the best-ranked free one, not the outfit
      const routine = await booked("routine");
      assert.ok([quick.ref, slow.ref].includes(routine.ref!), routine.ref!);
      assert.ok(routine.eta <= routine.deadline, "by the routine deadline");
    });

    it("never books a contractor past its capacity under concurrent orders", async () => {
      const contractor = await addContractor(t, "roofing", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 2, jobs_per_day: 3 },
      });
      const answers = await Promise.all(
        Array.from({ length: 16 }, () => order(t, key, { trade: "roofing", urgency: "urgent" })),
      );
      const bookings = await bookingsOf(t, contractor.id);
      const assigned = answers.filter((answer) => answer.status === 201);
      assert.ok(assigned.length >= 3, `${assigned.length} assigned`); // at least one local day's worth
      assert.equal(bookings.length, assigned.length);
      assert.ok(most(bookings, windowOf) <= 2);
      assert.ok(most(bookings, dayOf) <= 3);
      for (const answer of answers.filter((a) => a.status !== 201)) {
        assert.equal(answer.status, 202);
        assert.equal(answer.body.fulfilment?.reason, "no_window_available");
      }
    });

    it("answers an operator's assignment to a full contractor with 409, and assigns once a seat frees", async () => {
      const contractor = await addContractor(t, "hvac", {
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 1 },
      });
      const booked: string[] = [];
      let waiting: OrderAnswer | undefined;
      for (let i = 0; i < 4 && !waiting; i++) {
        const answer = await order(t, key, { trade: "hvac", urgency: "emergency" });
        if (answer.status === 201) booked.push(answer.body.order.id);
        else waiting = answer;
      }
      assert.ok(waiting && booked.length > 0, "one local day (or two, near midnight) of one seat each");
      assert.equal(waiting.body.fulfilment?.reason, "no_window_available");
      const named = await recordEvent(t, waiting.body.order.id, {
        status: "pending_dispatch",
        contractor_id: contractor.id,
      });
      assert.equal(named.status, 409);
      assert.equal(((await named.json()) as { code: string }).code, "contractor_at_capacity");
      const pool = await recordEvent(t, waiting.body.order.id, { status: "pending_dispatch" });
      assert.equal(((await pool.json()) as { code: string }).code, "no_window_available");
      // A cancelled job frees both its seats: the dispatcher, nudged by the cancel, assigns the waiting order.
      for (const id of booked) assert.equal((await recordEvent(t, id, { status: "cancelled" })).status, 201);
      await until(
        async () =>
          (await t.app.services.db("orders").where({ id: waiting.body.order.id }).first())?.status ===
          "pending_dispatch",
        { timeoutMs: 15_000, message: "the waiting order assigned" },
      );
      const [booking] = await t.app.services.db("contractor_bookings").where({ order_id: waiting.body.order.id });
      assert.equal(booking.contractor_id, contractor.id);
    });
  });
}

const postgres = postgresDatabase();
(postgres ? describe : describe.skip)("arrival windows on two instances of one Postgres", function () {
  this.timeout(180_000);
  const servers = twoInstancesOfOnePostgres();

  // A one-hour locksmith job holds its technician 90 minutes (drive and work): a two-hour window takes one or two of
  // them, never overlapping (before technicians' time, exactly one per window).
  it("never double-books the technician the orders race for from both instances", async () => {
    const { a, b } = servers;
    const key = (await a.issueKey({ account: "windows-two", environment: "live" })).key;
    const contractor = await addContractor(a, "locksmith", {
      working_hours: allWeek,
      capacity: { concurrent_jobs: 1, jobs_per_day: 100 },
    });
    const windows = ((await quote(a, key, "locksmith", "scheduled")).arrival_windows ?? []).slice(0, 6);
    assert.equal(windows.length, 6);
    for (const window of windows) {
      const job = { trade: "locksmith" as const, urgency: "scheduled" as const, arrival_window: window };
      const answers = await Promise.all([a, b, a, b].map((server) => order(server, key, job)));
      const won = answers.filter((answer) => answer.status === 201).length;
      assert.ok(won >= 1 && won <= 2, JSON.stringify(answers.map((answer) => answer.body.code ?? answer.status)));
      for (const answer of answers.filter((x) => x.status !== 201)) {
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, "window_unavailable");
      }
    }
    const bookings = await bookingsOf(a, contractor.id);
    const busy = bookings
      .map((row) => [new Date(row.busy_from!).getTime(), new Date(row.busy_until!).getTime()])
      .sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < busy.length; i++) assert.ok(busy[i][0] >= busy[i - 1][1], `overlap at ${i}`);
  });

  it("never books past jobs_per_day when both instances take orders at once", async () => {
    const { a, b } = servers;
    const key = (await a.issueKey({ account: "windows-two", environment: "live" })).key;
    const contractor = await addContractor(a, "electrical", {
      working_hours: allWeek,
      capacity: { concurrent_jobs: 1, jobs_per_day: 2 },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => order(i % 2 ? a : b, key, { trade: "electrical", urgency: "urgent" })),
    );
    const bookings = await bookingsOf(a, contractor.id);
    assert.equal(bookings.length, answers.filter((answer) => answer.status === 201).length);
    assert.ok(most(bookings, dayOf) <= 2);
    assert.ok(most(bookings, windowOf) <= 1);
  });
});
