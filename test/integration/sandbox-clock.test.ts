// The sandbox test clock (services/shared/test-clock.ts, sandbox/clock-advance.ts): with an account's clock
// frozen, its test orders take no sandbox step, no offer expires and nothing escalates across real intervals of the
// walker and the dispatcher; one advance then does exactly what fell due on the way, in time order, stamped with the
// clock's instants. Another account's sandbox and the account's live orders never move with it; live keys are
// refused (403 live_key); two instances on one Postgres read one clock.
//
// The world: one Anchorage plumber (nobody in the demo pool serves AK). The frozen instant is set five to seven hours
// behind the wall clock, so on the wall clock everything below would already be due; SANDBOX_STEP_MS is 50 minutes
// and a routine offer lasts 4 hours, so each thing falls due at its own instant:
//   X (urgent):  offered at T0, offer expires at T0+15m (back to the queue: nobody else), escalated at T0+2h
//   W (routine): offered at T0, walked by the sandbox at T0+50m, +100m, +150m, +200m (completed), booked into the
//                window holding T0+150m (a walk stays inside its window)
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { contractorKey } from "../helpers/contractors.js";
import { jsonRequest } from "../helpers/request.js";
import {
  adminToken,
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type ServerTarget,
  type TestServer,
} from "../helpers/server.js";
import { sleep, untilValue } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

interface Clock {
  account: string;
  environment: string;
  now: string;
  frozen: boolean;
  next_step_at: string | null;
  advance?: { from: string; changes: number };
}

const minutes = (n: number) => n * 60_000;
const admin = { authorization: `Bearer ${adminToken}` };
const call = async (t: ServerTarget, method: string, path: string, key: string, body?: unknown) => {
  const response = await jsonRequest(t, method, path, { headers: { "x-api-key": key }, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
};
const clockOf = async (t: ServerTarget, key: string) => {
  const got = await call(t, "GET", "/api/dispatch/v1/sandbox/clock", key);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  return got.body as unknown as Clock;
};
const advance = async (t: ServerTarget, key: string, body: unknown) => {
  const advanced = await call(t, "POST", "/api/dispatch/v1/sandbox/clock/advance", key, body);
  assert.equal(advanced.status, 200, JSON.stringify(advanced.body));
  return advanced.body as unknown as Clock;
};
const alaska = (reference: string, urgency: string) => ({
  ...orderRequest,
  location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" },
  reference_id: reference,
  urgency,
  nte_cents: 100_000,
});
async function order(t: ServerTarget, key: string, reference: string, urgency: string, extra: object = {}) {
  const created = await call(t, "POST", "/api/dispatch/v1/order", key, { ...alaska(reference, urgency), ...extra });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return (created.body.order as { id: string }).id;
}

/** What moved so far: each order's status, escalation and events (type@instant), and its offers' states. */
async function stateOf(t: TestServer, ids: string[]) {
  const db = t.app.services.db;
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const row = await db("orders").where({ id }).first();
    const events = await db("order_events").where({ order_id: id }).orderBy("id").select("type", "status", "at");
    const offers = await db("order_offers").where({ order_id: id }).orderBy("created_at").select("status");
    out[id] = {
      status: row!.status,
      escalated_at: row!.escalated_at ? new Date(row!.escalated_at).toISOString() : null,
      events: events.map((e) => `${e.type}:${e.status}@${new Date(e.at).toISOString()}`),
      offers: offers.map((o) => o.status),
    };
  }
  return out;
}
const statusEvents = async (t: TestServer, id: string) =>
  (await t.app.services.db("order_events").where({ order_id: id }).orderBy("id").select("type", "status", "at")).map(
    (e) => ({ type: e.type, status: e.status, at: new Date(e.at).toISOString() }),
  );

/** Freezes the account's clock `behindMs` behind the wall clock (as if frozen that long ago); the frozen instant. */
async function freezeBehind(t: TestServer, key: string, account: string, behindMs: number): Promise<number> {
  const frozen = await advance(t, key, { by: "0s" });
  assert.equal(frozen.frozen, true);
  return setFrozen(t, account, new Date(frozen.now).getTime() - behindMs);
}

/** Sets a frozen clock's instant in storage. */
async function setFrozen(t: TestServer, account: string, at: number): Promise<number> {
  await t.app.services
    .db("sandbox_clocks")
    .where({ account })
    .update({ frozen_at: new Date(at) });
  t.app.services.changes.announce("sandbox_clocks"); // a write past the services: PGlite hears only announcements
  return at;
}

/** W's walk (dispatched +50m, en route +100m, on site +150m: sandbox/walk-due.ts) fits a routine window that opens
 * by T0+110m (its 60-minute drive sets off by +50m) and ends after T0+155m (the holder arrives 5 minutes before the
 * end at the latest: sandbox/contractor.ts). Which quoted window does depends on the instant the suite runs at, so the
 * frozen instant moves back from five hours behind, a quarter hour at a time, until the quote holds one. */
async function freezeForTheWalk(t: TestServer, key: string, account: string) {
  const fiveHoursBehind = await freezeBehind(t, key, account, minutes(300));
  for (let back = 0; back <= 120; back += 15) {
    const t0 = await setFrozen(t, account, fiveHoursBehind - minutes(back));
    const quoted = await call(t, "POST", "/api/dispatch/v1/quote", key, {
      trade: "plumbing",
      urgency: "routine",
      location: { state: "AK", city: "Anchorage", zip: "99501" },
    });
    assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
    const walkWindow = (quoted.body.arrival_windows as { start: string; end: string }[]).find(
      (window) => Date.parse(window.start) <= t0 + minutes(110) && Date.parse(window.end) > t0 + minutes(155),
    );
    if (walkWindow) return { t0, walkWindow };
  }
  assert.fail("no routine window held W's walk from any frozen instant five to seven hours behind");
}

/** Real intervals of the background jobs: the walker's (1 s) and the dispatcher's sweeps, nudged every 200 ms. */
async function letTheJobsRun(t: TestServer, ms: number) {
  for (let waited = 0; waited < ms; waited += 200) {
    t.app.services.dispatcher.nudge();
    await sleep(200);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const days = (n: number) => n * 24 * 3_600_000;

/** Concurrent advances of one clock `by` one hour, from `start`: those answered 200 moved it an hour each, one after
 * another (each from where the one before left it), the clock stands an hour ahead per 200, and every other answer
 * is 409 clock_advancing. */
function assertOneAtATime(
  answers: { status: number; body: Record<string, unknown> }[],
  clock: { start: string; end: Clock; overlapped: boolean },
) {
  const { start, end } = clock;
  const refused = answers.filter((answer) => answer.status !== 200);
  for (const answer of refused) {
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.code, "clock_advancing");
    assert.match(String(answer.body.detail), /under way/);
  }
  const walks = answers
    .filter((answer) => answer.status === 200)
    .map((answer) => answer.body as unknown as Clock)
    .map((clock) => [Date.parse(clock.advance!.from), Date.parse(clock.now)])
    .sort((one, other) => one[0] - other[0]);
  let at = Date.parse(start);
  for (const [from, now] of walks) {
    assert.deepEqual(
      [iso(from), now - from],
      [iso(at), minutes(60)],
      "each 200 moved the clock an hour from its own start",
    );
    at = now;
  }
  assert.equal(end.now, iso(at), `the clock moved ${walks.length} h for ${walks.length} advances answered 200`);
  if (clock.overlapped) assert.ok(refused.length > 0, "the advances overlapped: some were refused");
}

for (const target of databases()) {
  describe(`sandbox test clock (${target.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const keys = { acme: "", acmeLive: "", other: "", empty: "" };

    before(async () => {
      t = await startTestServer(target, {
        SANDBOX_STEP_MS: String(minutes(50)),
        DISPATCHER_INTERVAL_MS: "1000",
        OFFER_DEADLINE_ROUTINE_MINUTES: "240",
      });
      keys.acme = (await t.issueKey({ account: "acme", environment: "test" })).key;
      keys.acmeLive = (await t.issueKey({ account: "acme", environment: "live" })).key;
      keys.other = (await t.issueKey({ account: "other", environment: "test" })).key;
      keys.empty = (await t.issueKey({ account: "empty", environment: "test" })).key;
      const created = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
        headers: admin,
        body: anchorageContractor("plumbing", "Anchorage Plumbing"),
      });
      assert.equal(created.status, 201, await created.text());
    });
    after(() => t?.stop());

    it("runs on the wall clock until frozen, and refuses live keys (403 live_key)", async () => {
      const before = now();
      const clock = await clockOf(t, keys.empty);
      assert.deepEqual([clock.account, clock.environment, clock.frozen], ["empty", "test", false]);
      assert.ok(new Date(clock.now).getTime() >= before);
      for (const [method, path, body] of [
        ["GET", "/api/dispatch/v1/sandbox/clock", undefined],
        ["POST", "/api/dispatch/v1/sandbox/clock/advance", { by: "2h" }],
      ] as const) {
        const refused = await call(t, method, path, keys.acmeLive, body);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.code, "live_key");
      }
    });

    it("answers 422 for a duration over 30 days, a malformed one or both by and to; 409 when nothing is scheduled", async () => {
      for (const body of [
        { by: "31d" },
        { by: "P31D" },
        { by: "P" },
        { by: "2 hours" },
        { by: "2h", to: "next_step" },
        {},
      ]) {
        const refused = await call(t, "POST", "/api/dispatch/v1/sandbox/clock/advance", keys.empty, body);
        assert.equal(refused.status, 422, JSON.stringify(body));
      }
      const nothing = await call(t, "POST", "/api/dispatch/v1/sandbox/clock/advance", keys.empty, { to: "next_step" });
      assert.equal(nothing.status, 409);
      assert.equal(nothing.body.code, "no_scheduled_step");
      assert.equal((await clockOf(t, keys.empty)).frozen, false, "a refused advance freezes nothing");
    });

    it("holds a frozen clock: no step, no expiry, no escalation; each advance does exactly what fell due, in order", async () => {
      const { t0, walkWindow } = await freezeForTheWalk(t, keys.acme, "acme");
      const x = await order(t, keys.acme, "clock-x", "urgent");
      const w = await order(t, keys.acme, "clock-w", "routine", { arrival_window: walkWindow });
      const otherW = await order(t, keys.other, "clock-other", "routine");
      const liveW = await order(t, keys.acmeLive, "clock-live", "routine");
      assert.deepEqual(
        (await statusEvents(t, x)).map((e) => e.at),
        [iso(t0), iso(t0)],
        "created on the frozen clock",
      );
      const held = await stateOf(t, [x, w]);
      await letTheJobsRun(t, 2400); // two walker intervals, a dozen sweeps: all of it is due on the wall clock
      assert.deepEqual(await stateOf(t, [x, w]), held, "a frozen clock holds");
      assert.equal((await clockOf(t, keys.acme)).now, iso(t0));

      const untouched = await stateOf(t, [otherW, liveW]);
      const first = await advance(t, keys.acme, { by: "55m" });
      assert.equal(first.now, iso(t0 + minutes(55)));
      assert.deepEqual(first.advance, { from: iso(t0), changes: 3 }); // expired, re-offered (queued), stepped
      const afterFirst = (await stateOf(t, [x, w])) as Record<
        string,
        { status: string; offers: string[]; events: string[] }
      >;
      assert.equal(afterFirst[x].status, "accepted_pending_fulfilment");
      assert.deepEqual(afterFirst[x].offers, ["expired"]);
      const expired = await t.app.services.db("order_offers").where({ order_id: x }).first();
      assert.equal(new Date(expired!.responded_at!).toISOString(), iso(t0 + minutes(15)));
      assert.equal(afterFirst[w].status, "dispatched");
      assert.equal((await statusEvents(t, w)).at(-1)!.at, iso(t0 + minutes(50)));
      assert.equal(first.next_step_at, iso(t0 + minutes(100)));

      const second = await advance(t, keys.acme, { to: "next_step" });
      assert.equal(second.now, iso(t0 + minutes(100)));
      assert.equal(second.advance!.changes, 1);
      assert.deepEqual(
        (await statusEvents(t, w)).find((e) => e.status === "en_route"),
        { type: "order.status_changed", status: "en_route", at: iso(t0 + minutes(100)) },
      );
      assert.equal(second.next_step_at, iso(t0 + minutes(120)), "X's fulfilment deadline");

      const third = await advance(t, keys.acme, { by: "PT3H" });
      assert.equal(third.now, iso(t0 + minutes(280)));
      const timeline = async (id: string) =>
        (await statusEvents(t, id)).map((e) => `${e.type} ${e.status} +${(Date.parse(e.at) - t0) / 60_000}m`);
      assert.deepEqual(await timeline(w), [
        "order.created pending_dispatch +0m",
        "order.assigned pending_dispatch +0m",
        "order.status_changed dispatched +50m",
        "order.assigned dispatched +50m",
        "order.status_changed en_route +100m",
        "order.eta_updated en_route +100m",
        "order.status_changed on_site +150m",
        "order.status_changed completed +200m",
        "order.completed completed +200m",
      ]);
      assert.deepEqual(await timeline(x), [
        "order.created pending_dispatch +0m",
        "order.assigned pending_dispatch +0m",
        "order.status_changed accepted_pending_fulfilment +15m",
        "order.escalated accepted_pending_fulfilment +120m",
      ]);
      const xNow = (await stateOf(t, [x]))[x] as { escalated_at: string };
      assert.equal(xNow.escalated_at, iso(t0 + minutes(120)));
      assert.equal(third.next_step_at, null);

      assert.deepEqual(await stateOf(t, [otherW, liveW]), untouched, "other accounts and live orders never move");
      assert.equal((await clockOf(t, keys.other)).frozen, false);
    });

    it("leaves the account's live orders on the wall clock while its sandbox is frozen", async () => {
      assert.equal((await clockOf(t, keys.acme)).frozen, true);
      const live = await order(t, keys.acmeLive, "clock-live-due", "urgent");
      const db = t.app.services.db;
      await db("order_offers")
        .where({ order_id: live, status: "offered" })
        .update({ deadline_at: new Date(now() - 1000) }); // due on the wall clock
      const offer = await untilValue(
        async () => {
          t.app.services.dispatcher.nudge();
          const row = await db("order_offers").where({ order_id: live }).orderBy("created_at").first();
          return row?.status === "expired" ? row : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 200, message: "the live offer expired by the wall clock" },
      );
      assert.ok(Math.abs(new Date(offer.responded_at!).getTime() - now()) < 60_000);
    });

    it("stamps a contractor's accept and field report on a test order with the account's frozen clock", async () => {
      const clock = await clockOf(t, keys.acme);
      assert.equal(clock.frozen, true);
      const id = await order(t, keys.acme, "clock-contractor", "routine");
      const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const { key } = await contractorKey(t, offer!.contractor_id, "test");
      const accepted = await call(t, "POST", `/api/dispatch/v1/contractor/offers/${offer!.id}/accept`, key);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      // an ETA 40 minutes after the frozen instant: more than an hour before the wall clock, so refused unless the
      // report reads the account's clock
      const eta = iso(new Date(clock.now).getTime() + minutes(40));
      const body = { status: "en_route", estimated_arrival_at: eta };
      const reported = await call(t, "POST", `/api/dispatch/v1/contractor/jobs/${id}/status`, key, body);
      assert.equal(reported.status, 200, JSON.stringify(reported.body));
      const events = await statusEvents(t, id);
      assert.ok(events.some((e) => e.status === "dispatched") && events.some((e) => e.status === "en_route"));
      for (const event of events) assert.equal(event.at, clock.now, `${event.type} ${event.status}`);
      assert.equal((await clockOf(t, keys.acme)).now, clock.now, "the clock did not move");
    });

    it("accepts its whole range (30 days): an order that waited all of it is assigned, and every operation works there", async () => {
      const { key } = await t.issueKey({ account: "far", environment: "test" });
      await advance(t, key, { by: "0s" });
      const waiting = await call(t, "POST", "/api/dispatch/v1/order", key, {
        ...alaska("far-waiting", "routine"),
        trade: "electrical",
        description: "No power in the back office.",
      });
      assert.equal(waiting.status, 202, JSON.stringify(waiting.body)); // nobody serves AK electrical yet
      const far = await advance(t, key, { by: "30d" });
      assert.equal(Date.parse(far.now) - Date.parse(far.advance!.from), days(30));
      const electrician = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
        headers: admin,
        body: anchorageContractor("electrical", "Anchorage Electric"),
      });
      assert.equal(electrician.status, 201, await electrician.text());
      // the next advance's sweep assigns the order that waited the whole range: a latency no integer of ms holds
      await advance(t, key, { by: "1m" });
      const waited = (await t.app.services
        .db("orders")
        .where({ id: (waiting.body.order as { id: string }).id })
        .first())!;
      assert.deepEqual([waited.status, waited.dispatch_latency_ms], ["pending_dispatch", days(30)]);

      const job = { trade: "plumbing", location: { state: "AK", city: "Anchorage", zip: "99501" }, urgency: "routine" };
      const quote = await call(t, "POST", "/api/dispatch/v1/quote", key, job);
      assert.equal(quote.status, 200, JSON.stringify(quote.body));
      const windows = quote.body.arrival_windows as { start: string; end: string }[];
      assert.ok(
        windows.length >= 2 && Date.parse(windows[0].end) > Date.parse(far.now),
        `windows on the far clock: ${JSON.stringify(quote.body)}`,
      );
      const ordered = await call(t, "POST", "/api/dispatch/v1/order", key, {
        ...alaska("far-order", "routine"),
        quote_id: quote.body.quote_id,
        arrival_window: { start: windows[0].start, end: windows[0].end },
      });
      assert.equal(ordered.status, 201, JSON.stringify(ordered.body));
      const id = (ordered.body.order as { id: string }).id;
      const row = (await t.app.services.db("orders").where({ id }).first())!;
      const clock = await clockOf(t, key);
      assert.equal(new Date(row.created_at).toISOString(), clock.now);
      assert.ok(
        row.dispatch_latency_ms! < 60_000,
        `the request's own latency, not the clock's lead: ${row.dispatch_latency_ms}`,
      );
      const offer = (await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first())!;
      const contractor = (await contractorKey(t, offer.contractor_id, "test")).key;
      const v1 = "/api/dispatch/v1";
      const steps: [string, string, string, unknown][] = [
        ["accept", contractor, `${v1}/contractor/offers/${offer.id}/accept`, undefined],
        ["reschedule", key, `${v1}/orders/${id}/reschedule`, { arrival_window: windows[1] }],
        [
          "report",
          contractor,
          `${v1}/contractor/jobs/${id}/status`,
          { status: "en_route", estimated_arrival_at: iso(Date.parse(clock.now) + minutes(40)) },
        ],
        [
          "revise",
          contractor,
          `${v1}/contractor/jobs/${id}/price-revisions`,
          { amount_cents: 150_000, reason: "A second valve." },
        ],
      ];
      for (const [name, caller, path, body] of steps) {
        const answered = await call(t, "POST", path, caller, body);
        assert.ok(
          answered.status === 200 || answered.status === 201,
          `${name}: ${answered.status} ${JSON.stringify(answered.body)}`,
        );
      }
      const revision = (await t.app.services
        .db("order_price_revisions")
        .where({ order_id: id, status: "pending" })
        .first())!;
      const approved = await call(t, "POST", `${v1}/orders/${id}/price-revisions/${revision.id}/approve`, key, {});
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      const cancelled = await call(t, "POST", `${v1}/orders/${id}/cancel`, key, { reason: "other" });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      const stamps = await t.app.services
        .db("order_events")
        .where({ order_id: id })
        .orderBy("id")
        .select("type", "status", "at");
      assert.deepEqual(
        stamps.map((e) => `${e.type}:${e.status}@${new Date(e.at).toISOString()}`),
        stamps.map((e) => `${e.type}:${e.status}@${clock.now}`),
        "every event on the far clock",
      );
    });

    it("takes one advance of a clock at a time: of ten at once, each 200 moved it an hour in turn, the rest are 409", async () => {
      const { key } = await t.issueKey({ account: "racing", environment: "test" });
      const start = await advance(t, key, { by: "0s" });
      await order(t, key, "race-w", "routine"); // a walking order: each walk has steps to take
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(t, "POST", "/api/dispatch/v1/sandbox/clock/advance", key, { by: "1h" })),
      );
      const end = await clockOf(t, key);
      // PGlite answers each request to its end before it reads the next (its queries never wait on a socket), so
      // over HTTP they come one after another there; Postgres's round trips let them overlap
      assertOneAtATime(answers, { start: start.now, end, overlapped: target.name === "postgres" });
      // ten calls begun in one tick overlap on either database
      const tenant = { account: "racing", environment: "test" as const };
      const burst = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.app.services.sandbox.advanceClock(tenant, { by: "1h" }).then(
            (body) => ({ status: 200, body: body as unknown as Record<string, unknown> }),
            (error: unknown) => {
              const refused = error as { kind?: string; code?: string; message: string };
              return {
                status: refused.kind === "conflict" ? 409 : 500,
                body: { code: refused.code, detail: refused.message },
              };
            },
          ),
        ),
      );
      const last = await clockOf(t, key);
      assertOneAtATime(burst, { start: end.now, end: last, overlapped: true });
      const after = await advance(t, key, { by: "1h" }); // nothing is left claimed: the next one goes through
      assert.deepEqual([after.advance!.from, after.now], [last.now, iso(Date.parse(last.now) + minutes(60))]);
    });

    it("goes back to the wall clock on resetSandbox", async () => {
      assert.equal((await clockOf(t, keys.acme)).frozen, true);
      assert.equal((await call(t, "POST", "/api/dispatch/v1/sandbox/reset", keys.acme)).status, 200);
      assert.equal((await clockOf(t, keys.acme)).frozen, false);
      const id = await order(t, keys.acme, "clock-after-reset", "routine"); // the request's clock, not the cache's
      const created = (await t.app.services.db("orders").where({ id }).first())!.created_at;
      assert.ok(Math.abs(new Date(created).getTime() - now()) < 60_000, "stamped by the wall clock");
    });
  });
}

if (postgresDatabase())
  describe("sandbox test clock (two instances on one Postgres)", function () {
    this.timeout(120_000);
    const pair = twoInstancesOfOnePostgres();

    it("reads one clock on both instances, and an order made on either is stamped with it", async () => {
      const { a, b } = pair;
      const key = (await a.issueKey({ account: "shared", environment: "test" })).key;
      const advanced = await advance(a, key, { by: "PT2H" });
      const seen = await clockOf(b, key);
      assert.deepEqual([seen.now, seen.frozen], [advanced.now, true]);
      const created = await call(b, "POST", "/api/dispatch/v1/order", key, { ...orderRequest, reference_id: "two-1" });
      assert.ok(created.status === 201 || created.status === 202, JSON.stringify(created.body));
      const id = (created.body.order as { id: string }).id;
      const row = await a.app.services.db("orders").where({ id }).first();
      assert.equal(new Date(row!.created_at).toISOString(), advanced.now);
      const moved = await advance(b, key, { by: "1m" });
      assert.equal((await clockOf(a, key)).now, moved.now);
    });

    it("takes one advance of a clock at a time across both: of ten at once on two instances, each 200 an hour in turn", async () => {
      const { a, b } = pair;
      const key = (await a.issueKey({ account: "racing-two", environment: "test" })).key;
      const start = await advance(a, key, { by: "0s" });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(i % 2 ? a : b, "POST", "/api/dispatch/v1/sandbox/clock/advance", key, { by: "1h" }),
        ),
      );
      assertOneAtATime(answers, { start: start.now, end: await clockOf(b, key), overlapped: true });
    });
  });
