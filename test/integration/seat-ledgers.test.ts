// Test and live keep separate seat ledgers (services/dispatch/bookings.ts): the contractors are shared, their seats
// are not. In each direction, one environment fills a contractor (every seat of its urgent horizon, until an order
// waits with no_window_available), and the other still quotes its windows, books one at creation, gets a job
// re-offered to it after a decline, and has its waiting order assigned by the dispatcher beside the filler's order
// that waits. Each test has its own trade in Alaska, where the demo pool has nobody, so its contractors are the only
// matches; they work around the clock, so no assertion depends on the hour or the weekday.
import assert from "node:assert/strict";
import { anchorageContractor } from "../fixtures/requests.js";
import { admin, answerOffer, call, contractorKey } from "../helpers/contractors.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";
import type { Schemas } from "../../server/types/contract.js";

type S = Schemas;
type Environment = S["ApiKeyEnvironment"];
const always = [{ start: "00:00", end: "24:00" }];
const allWeek = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [day, always]),
);
const location = { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" };
/** One job at a time and one a day: an urgent horizon (24 h) spans two local days, so two orders fill it at most. */
const capacity = { concurrent_jobs: 1, jobs_per_day: 1 };
/** More orders than the contractors of one test can take in an urgent horizon. */
const fillBound = 6;

interface OrderAnswer {
  status: number;
  order: { id: string; status: string; arrival_window: S["ArrivalWindow"] | null };
  reason?: string;
}

for (const target of databases()) {
  describe(`seat ledgers of test and live (${target.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const customers = {} as Record<Environment, string>;
    let serial = 0;

    before(async () => {
      t = await startTestServer(target, { DISPATCHER_INTERVAL_MS: "1000" });
      for (const environment of ["test", "live"] as const)
        customers[environment] = (await t.issueKey({ account: "worlds", environment })).key;
    });
    after(() => t?.stop());

    async function addContractor(trade: S["TradeCode"], name: string, hourly = 9000) {
      const body = { ...anchorageContractor(trade, name), hourly_rate_cents: hourly, working_hours: allWeek, capacity };
      const created = await call(t, "POST", "/api/admin/v1/contractors", admin, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    }
    async function order(environment: Environment, trade: S["TradeCode"]): Promise<OrderAnswer> {
      const body = {
        trade,
        location,
        urgency: "urgent",
        description: "Seat ledger test.",
        reference_id: `sl-${++serial}`,
      };
      const answer = await call(t, "POST", "/api/dispatch/v1/order", { "x-api-key": customers[environment] }, body);
      const fulfilment = answer.body.fulfilment as { reason?: string } | undefined;
      return { status: answer.status, order: answer.body.order as OrderAnswer["order"], reason: fulfilment?.reason };
    }
    async function quotedWindows(environment: Environment, trade: S["TradeCode"]) {
      const { address: _street, ...place } = location; // a quote takes no street
      const body = { trade, location: place, urgency: "urgent" };
      const quote = await call(t, "POST", "/api/dispatch/v1/quote", { "x-api-key": customers[environment] }, body);
      assert.equal(quote.status, 200, JSON.stringify(quote.body));
      return (quote.body.arrival_windows as S["ArrivalWindow"][]).map((window) => window.start);
    }
    /** Orders of `environment` until one waits with no_window_available: the orders that took the seats. */
    async function fill(environment: Environment, trade: S["TradeCode"]) {
      const booked: OrderAnswer[] = [];
      for (let i = 0; i < fillBound; i++) {
        const answer = await order(environment, trade);
        if (answer.status === 202) {
          assert.equal(answer.reason, "no_window_available");
          assert.ok(booked.length > 0, "the contractors took some orders first");
          return booked;
        }
        assert.equal(answer.status, 201, JSON.stringify(answer));
        booked.push(answer);
      }
      throw new Error(`${fillBound} orders never filled the ${trade} contractors`);
    }
    const orderStatus = async (id: string) => (await t.app.services.db("orders").where({ id }).first("status"))!.status;

    const directions = [
      { filler: "test", other: "live", trades: ["hvac", "roofing", "locksmith"] },
      { filler: "live", other: "test", trades: ["carpentry", "painting", "appliance_repair"] },
    ] as const;
    for (const { filler, other, trades } of directions)
      describe(`when ${filler} fills a contractor`, () => {
        it(`${other} still quotes the windows ${filler} took and books one at creation`, async () => {
          const trade = trades[0];
          await addContractor(trade, `Ledger ${trade}`);
          const booked = await fill(filler, trade);
          assert.deepEqual(await quotedWindows(filler, trade), [], `${filler} sees the contractor full`);
          const open = await quotedWindows(other, trade);
          for (const { order: taken } of booked)
            assert.ok(
              open.includes(taken.arrival_window!.start),
              `${other} still quotes ${taken.arrival_window!.start}`,
            );
          const created = await order(other, trade);
          assert.equal(created.status, 201, JSON.stringify(created));
          assert.ok(open.includes(created.order.arrival_window!.start));
        });

        it(`${other} re-offers a declined job to a contractor ${filler} filled`, async () => {
          const trade = trades[1];
          const cheap = await addContractor(trade, `Cheap ledger ${trade}`, 8000);
          const dear = await addContractor(trade, `Dear ledger ${trade}`, 12_000);
          await fill(filler, trade); // both contractors, every seat
          const keys = {
            [cheap]: (await contractorKey(t, cheap, other)).key,
            [dear]: (await contractorKey(t, dear, other)).key,
          };
          const created = await order(other, trade);
          assert.equal(created.status, 201, JSON.stringify(created));
          const db = t.app.services.db;
          const offered = (await db("order_offers").where({ order_id: created.order.id, status: "offered" }).first())!;
          const declined = await answerOffer(t, keys[offered.contractor_id], offered.id, "decline", {
            reason: "other",
          });
          assert.equal(declined.status, 200, JSON.stringify(declined.body));
          const next = await db("order_offers").where({ order_id: created.order.id, status: "offered" }).first();
          assert.equal(next?.contractor_id, offered.contractor_id === cheap ? dear : cheap, "offered to the other one");
          assert.equal(await orderStatus(created.order.id), "pending_dispatch");
        });

        it(`the dispatcher assigns ${other}'s waiting order beside ${filler}'s order that finds no seat`, async () => {
          const trade = trades[2];
          const waiting: OrderAnswer[] = [];
          for (let i = 0; i < 3; i++) waiting.push(await order(filler, trade)); // more than two days' seats
          const mine = await order(other, trade);
          for (const answer of [...waiting, mine]) assert.equal(answer.reason, "no_contractor_in_area");
          await addContractor(trade, `Late ledger ${trade}`); // the dispatcher is nudged: oldest orders first
          await untilValue(async () => ((await orderStatus(mine.order.id)) === "pending_dispatch" ? true : undefined), {
            message: `the dispatcher to assign the ${other} order`,
            intervalMs: 100,
          });
          const statuses = await Promise.all(waiting.map(({ order: { id } }) => orderStatus(id)));
          assert.ok(
            statuses.includes("accepted_pending_fulfilment"),
            `a ${filler} order still waits: ${statuses.join()}`,
          );
          assert.ok(statuses.includes("pending_dispatch"), `the ${filler} orders took seats first: ${statuses.join()}`);
        });
      });
  });
}
