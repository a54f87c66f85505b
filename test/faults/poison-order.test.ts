// Fault: a poison order, one whose assignment and escalation the database refuses (a constraint planted on that one
// row), waits at the head of the dispatcher's queue beside healthy orders of another account. The sweep skips it and
// goes on: the others are assigned within seconds of a contractor joining and escalated within one interval of
// their deadline; the poison one is reported once per cause however many sweeps meet it (one log line each, no
// stack), counted in dispatch_order_step_failures_total, and assigned once the refusal is lifted; an order whose
// re-offer fails does not hold back the assignments after it, nor does a whole page of orders that cannot be
// re-offered or escalated hold back the orders behind them. An order that waited 26 days, longer than an integer
// of milliseconds holds, is assigned like any other. PGlite and Postgres.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import type { components } from "../../sdk/generated/openapi.js";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";
import { installBusinessTime } from "../helpers/business-time.js";
import { now } from "../../server/services/shared/clock.js";

interface Line {
  level: number;
  msg?: string;
  order?: string;
  step?: string;
  cause?: string;
  err?: unknown;
}

/** A pino destination that keeps every line parsed. */
function capture(): { lines: Line[]; stream: Writable } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { lines, stream };
}

type S = components["schemas"];
const hours = (n: number) => n * 3_600_000;
const admin = { authorization: `Bearer ${adminToken}` };

/** An AK order (nobody in the demo pool serves AK): 202, waiting for the dispatcher. */
async function waiting(t: TestServer, key: string, reference: string, extra: Record<string, unknown> = {}) {
  const body = { ...orderRequest, location: { state: "AK", city: "Anchorage" }, reference_id: reference, ...extra };
  const response = await postOrder(t, { "x-api-key": key }, body);
  assert.equal(response.status, 202, await response.clone().text());
  return ((await response.json()) as { order: { id: string } }).order.id;
}

/** Moves the order's creation `ms` into the past, as if it had waited that long. */
async function age(t: TestServer, id: string, ms: number): Promise<void> {
  const db = t.app.services.db;
  const row = (await db("orders").where({ id }).first())!;
  await db("orders")
    .where({ id })
    .update({ created_at: new Date(new Date(row.created_at).getTime() - ms) });
}

async function joins(t: TestServer, trade: S["TradeCode"]): Promise<void> {
  const created = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
    headers: admin,
    body: anchorageContractor(trade),
  });
  assert.equal(created.status, 201, await created.text());
}

async function failures(t: TestServer, step: string): Promise<number> {
  const response = await t.fetch(`${t.url}/api/admin/v1/metrics`, { headers: admin });
  const text = await response.text();
  const line = text.split("\n").find((l) => l.startsWith(`dispatch_order_step_failures_total{step="${step}",`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** Sweeps for `ms`: the dispatcher nudged every 200 ms, so it sweeps about once a second. */
async function sweepFor(t: TestServer, ms: number): Promise<void> {
  for (let waited = 0; waited < ms; waited += 200) {
    t.app.services.dispatcher.nudge();
    await sleep(200);
  }
}

for (const db of databases())
  describe(`fault: a poison order in the dispatcher's queue (${db.name})`, function () {
    this.timeout(120_000);
    const logs = capture();
    let t: TestServer;
    before(async () => {
      const env = { LOG_LEVEL: "info", DISPATCHER_INTERVAL_MS: "1000", RATE_LIMIT_POINTS: "100000" };
      t = await startTestServer(db, env, { logStream: logs.stream });
    });
    after(() => t?.stop());

    it("skips it, assigns and escalates another account's orders on time, reports it once per cause", async () => {
      const poisonKey = (await t.issueKey({ account: "poisoned", environment: "live" })).key;
      const healthyKey = (await t.issueKey({ account: "healthy", environment: "live" })).key;
      const poison = await waiting(t, poisonKey, "poison-1", { urgency: "urgent" });
      // planted while nothing can move it yet: unassigned, nobody serves it, within its deadline
      const refusal = `check (id <> '${poison}' or (contractor_id is null and escalated_at is null))`;
      await t.app.services.db.raw(`alter table orders add constraint poison_order ${refusal}`);
      const assignable: string[] = [];
      for (let i = 0; i < 3; i++) assignable.push(await waiting(t, healthyKey, `healthy-plumbing-${i}`));
      const overdue: string[] = [];
      for (let i = 0; i < 2; i++)
        overdue.push(await waiting(t, healthyKey, `healthy-roofing-${i}`, { trade: "roofing", urgency: "urgent" }));
      // oldest first, the poison heads both the queue and the overdue orders (urgent: 2 h to find a contractor)
      await age(t, poison, hours(3));
      for (const id of overdue) await age(t, id, hours(2.5));

      const joined = Date.now();
      await joins(t, "plumbing"); // its change notice sweeps at once
      const orders = t.app.services.db("orders");
      await until(
        async () => (await orders.clone().whereIn("id", assignable).where({ status: "pending_dispatch" })).length === 3,
        { timeoutMs: 10_000, message: "the healthy account's orders assigned" },
      );
      await until(async () => (await orders.clone().whereIn("id", overdue).whereNotNull("escalated_at")).length === 2, {
        timeoutMs: 10_000,
        message: "the healthy account's overdue orders escalated",
      });
      for (const row of await orders.clone().whereIn("id", overdue))
        assert.ok(
          new Date(row.escalated_at!).getTime() - joined < 10_000,
          "escalated by the sweep the pool change asked for",
        );

      await sweepFor(t, 3000);
      const row = (await orders.clone().where({ id: poison }).first())!;
      assert.deepEqual([row.status, row.contractor_id, row.escalated_at], ["accepted_pending_fulfilment", null, null]);
      for (const step of ["assign", "escalate"]) assert.ok((await failures(t, step)) >= 3, `${step}: once per sweep`);
      const reported = logs.lines.filter((line) => line.order === poison);
      assert.deepEqual(
        reported.map((line) => [line.level, line.step, line.cause, "err" in line]).sort(),
        [
          [50, "assign", "23514", false],
          [50, "escalate", "23514", false],
        ],
        "one line per cause for every sweep that met it, without a stack",
      );
      assert.match(reported[0].msg ?? "", new RegExp(`skipped order ${poison}`));

      await t.app.services.db.raw("alter table orders drop constraint poison_order");
      await until(async () => (await orders.clone().where({ id: poison }).first())!.status === "pending_dispatch", {
        timeoutMs: 10_000,
        message: "the poison order assigned once its refusal is lifted",
      });
    });

    it("skips an order whose re-offer fails, and still assigns the orders after it", async () => {
      const poisonKey = (await t.issueKey({ account: "poisoned-offer", environment: "live" })).key;
      const healthyKey = (await t.issueKey({ account: "healthy-offer", environment: "live" })).key;
      await joins(t, "electrical"); // the one contractor of the job
      const job = { trade: "electrical", description: "No power in the kitchen." };
      const body = {
        ...orderRequest,
        ...job,
        location: { state: "AK", city: "Anchorage" },
        reference_id: "poison-offer",
      };
      const created = await postOrder(t, { "x-api-key": poisonKey }, body);
      assert.equal(created.status, 201, await created.clone().text());
      const poison = ((await created.json()) as { order: { id: string } }).order.id;
      const healthy = await waiting(t, healthyKey, "after-the-offer", { trade: "locksmith" });
      const db = t.app.services.db;
      // nobody else is left to offer it, and its return to the queue is refused
      const refusal = `check (id <> '${poison}' or status <> 'accepted_pending_fulfilment')`;
      await db.raw(`alter table orders add constraint poison_reoffer ${refusal}`);
      await db("order_offers")
        .where({ order_id: poison, status: "offered" })
        .update({ deadline_at: new Date(now() - 1000) });
      const before = await failures(t, "reoffer");
      await joins(t, "locksmith");
      await until(async () => (await db("orders").where({ id: healthy }).first())!.status === "pending_dispatch", {
        timeoutMs: 10_000,
        message: "the order after the failed re-offer assigned",
      });
      assert.ok((await failures(t, "reoffer")) > before, "the failed re-offer counted");
      assert.ok(logs.lines.some((line) => line.order === poison && line.step === "reoffer" && line.cause === "23514"));
      await db.raw("alter table orders drop constraint poison_reoffer");
    });

    it("goes past a whole page of orders it cannot escalate to the overdue orders behind them", async () => {
      const floodKey = (await t.issueKey({ account: "flooded", environment: "live" })).key;
      const healthyKey = (await t.issueKey({ account: "healthy-too", environment: "live" })).key;
      const db = t.app.services.db;
      await db.raw(
        "alter table orders add constraint flooded_orders check (account <> 'flooded' or escalated_at is null)",
      );
      const poisoned: string[] = [];
      for (let i = 0; i < 101; i++)
        // more than a page of the sweep: all of them ahead of the healthy one
        poisoned.push(await waiting(t, floodKey, `flood-${i}`, { trade: "painting", urgency: "urgent" }));
      const healthy = await waiting(t, healthyKey, "behind-the-flood", { trade: "painting", urgency: "urgent" });
      await db("orders")
        .whereIn("id", poisoned)
        .update({ created_at: new Date(now() - hours(3)) });
      await age(t, healthy, hours(2.5));
      const before = await failures(t, "escalate");
      t.app.services.dispatcher.nudge();
      await until(async () => (await db("orders").where({ id: healthy }).first())!.escalated_at !== null, {
        timeoutMs: 10_000,
        message: "the overdue order behind the page of poison escalated",
      });
      assert.ok((await failures(t, "escalate")) - before >= 101, "each poison order tried and skipped");
      await db.raw("alter table orders drop constraint flooded_orders");
    });

    it("goes past a whole page of orders whose re-offer fails to the stranded order behind them", async () => {
      const floodKey = (await t.issueKey({ account: "stranded-flood", environment: "live" })).key;
      const healthyKey = (await t.issueKey({ account: "stranded-healthy", environment: "live" })).key;
      const db = t.app.services.db;
      // once stranded, every change of the flood's orders is refused, whatever a re-offer tries (another offer, or
      // back to the queue)
      await db.raw(`create function refuse_flood() returns trigger language plpgsql as $$
        begin raise exception 'refused' using errcode = '23514'; end $$`);
      await db.raw(`create trigger refuse_flood before update on orders for each row
        when (old.account = 'stranded-flood' and old.status = 'pending_dispatch') execute function refuse_flood()`);
      const poisoned: string[] = [];
      for (let i = 0; i < 101; i++)
        poisoned.push(await waiting(t, floodKey, `stranded-${i}`, { trade: "appliance_repair" }));
      await joins(t, "carpentry");
      await joins(t, "carpentry");
      const body = { ...orderRequest, trade: "carpentry", description: "A door off its hinges.", nte_cents: 200_000 };
      const job = { ...body, location: { state: "AK" }, reference_id: "behind-the-stranded" };
      const created = await postOrder(t, { "x-api-key": healthyKey }, job);
      assert.equal(created.status, 201, await created.clone().text());
      const healthy = ((await created.json()) as { order: { id: string } }).order.id; // after the flood by id
      const before = await failures(t, "reoffer");
      // all of them stranded at once: declined, nothing open (an instance stopped between a decline and its re-offer)
      await db.transaction(async (trx) => {
        const offer = (await trx("order_offers").where({ order_id: healthy }).first())!;
        const declined = { status: "declined" as const, responded_at: new Date() };
        await trx("order_offers").where({ id: offer.id }).update(declined);
        await trx("orders").whereIn("id", poisoned).update({ status: "pending_dispatch" });
        const copies = poisoned.map((id, i) => ({ ...offer, ...declined, id: `ofr_flood_${i}`, order_id: id }));
        await trx("order_offers").insert(copies);
      });
      t.app.services.dispatcher.nudge();
      await until(async () => (await db("order_offers").where({ order_id: healthy, status: "offered" })).length === 1, {
        timeoutMs: 10_000,
        message: "the stranded order behind the page of poison re-offered",
      });
      assert.ok((await failures(t, "reoffer")) - before >= 101, "each poison order tried and skipped first");
      await db.raw("drop trigger refuse_flood on orders");
    });

    it("assigns an order that waited 26 days (a latency beyond an integer of milliseconds)", async () => {
      const key = (await t.issueKey({ account: "patient", environment: "live" })).key;
      const id = await waiting(t, key, "patient-1", { trade: "hvac", description: "No heat in the office." });
      await age(t, id, hours(26 * 24));
      await joins(t, "hvac");
      const orders = t.app.services.db("orders");
      await until(async () => (await orders.clone().where({ id }).first())!.status === "pending_dispatch", {
        timeoutMs: 10_000,
        message: "the order that waited 26 days assigned",
      });
      const row = (await orders.clone().where({ id }).first())!;
      assert.ok(row.dispatch_latency_ms! >= hours(26 * 24), `latency ${row.dispatch_latency_ms}`);
      assert.equal(logs.lines.filter((line) => line.order === id).length, 0, "nothing reported");
    });
  });

for (const db of databases())
  describe(`fault: a poison order in the sandbox walker (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let restoreClock: (() => void) | undefined;
    before(async () => {
      restoreClock = installBusinessTime(); // the window under way is reachable: the walk does not wait for one
      t = await startTestServer(db, { SANDBOX_STEP_MS: "200" });
    });
    after(async () => {
      await t?.stop();
      restoreClock?.();
    });

    it("skips a test order whose step fails and walks another account's test orders on", async () => {
      const poisonKey = (await t.issueKey({ account: "poisoned-walk", environment: "test" })).key;
      const healthyKey = (await t.issueKey({ account: "healthy-walk", environment: "test" })).key;
      const order = async (key: string, reference: string) => {
        const response = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: reference });
        assert.equal(response.status, 201, await response.clone().text());
        return ((await response.json()) as { order: { id: string } }).order.id;
      };
      const db = t.app.services.db;
      // planted before the order exists: the walker steps an order a few hundred ms after its creation
      const refusal = "check (reference_id is distinct from 'walk-poison' or status = 'pending_dispatch')";
      await db.raw(`alter table orders add constraint poison_walk ${refusal}`);
      const poison = await order(poisonKey, "walk-poison");
      const healthy = await order(healthyKey, "walk-healthy");
      await until(async () => (await db("orders").where({ id: healthy }).first())!.status === "completed", {
        timeoutMs: 15_000,
        message: "the other account's test order walked to completed",
      });
      assert.equal((await db("orders").where({ id: poison }).first())!.status, "pending_dispatch");
      await db.raw("alter table orders drop constraint poison_walk");
    });
  });
