// Public endpoints of the server core (estimate, index, evals, health, contract) on every test database.
import assert from "node:assert/strict";
import { createDispatchClient } from "../../sdk/index.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`server core public endpoints (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let client: ReturnType<typeof createDispatchClient>;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      client = createDispatchClient({ baseUrl: t.url, fetch: t.fetch, retry: false });
    });
    after(() => t?.stop());

    describe("createEstimate()", () => {
      it("separates wage basis from the billed estimate and cites the OEWS release", async () => {
        const { data, response } = await client.POST("/api/dispatch/v1/estimate", {
          body: { trade: "electrical", location: { state: "CA" } },
        });
        assert.equal(response.status, 200);
        assert.equal(data!.national_baseline, true);
        assert.equal(data!.urgency, "routine");
        assert.match(data!.wage_basis.source.release, /OEWS|Occupational Employment and Wage Estimates/);
        assert.equal(data!.wage_basis.source.soc_code, "47-2111");
        const { low_cents, point_cents, high_cents } = data!.billed_estimate;
        assert.ok(low_cents < point_cents && point_cents < high_cents);
      });

      it("applies the disclosed urgency multiplier", async () => {
        const routine = await client.POST("/api/dispatch/v1/estimate", {
          body: { trade: "hvac", location: { state: "TX" }, urgency: "routine" },
        });
        const emergency = await client.POST("/api/dispatch/v1/estimate", {
          body: { trade: "hvac", location: { state: "TX" }, urgency: "emergency" },
        });
        const ratio =
          emergency.data!.billed_estimate.hourly_rate_dollars / routine.data!.billed_estimate.hourly_rate_dollars;
        assert.ok(Math.abs(ratio - emergency.data!.model.urgency_multipliers.emergency) < 0.01);
      });

      it("answers 422 with a pointer per invalid field", async () => {
        const { error, response } = await client.POST("/api/dispatch/v1/estimate", {
          body: { trade: "gardening" as "hvac", location: { state: "TEX" as "TX" } },
        });
        assert.equal(response.status, 422);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
        assert.deepEqual((error as { errors: { pointer: string }[] }).errors.map((e) => e.pointer).sort(), [
          "/location/state",
          "/trade",
        ]);
      });
    });

    describe("getTradeIndex()", () => {
      it("lists the 8 trades with wage figures and the routine billed rate", async () => {
        const { data } = await client.GET("/api/dispatch/index");
        assert.deepEqual(
          data!.trades.map((t) => t.code),
          ["plumbing", "electrical", "hvac", "carpentry", "roofing", "painting", "locksmith", "appliance_repair"],
        );
        for (const trade of data!.trades) {
          assert.ok(
            trade.p25 < trade.median_rate_dollars &&
              trade.median_rate_dollars < trade.p75 &&
              trade.billed_hourly_rate_routine_dollars > trade.p75,
          );
          // the first release's camelCase names stay, deprecated, with the same values
          const first = trade as unknown as Record<string, unknown>;
          assert.equal(first.medianRateDollars, trade.median_rate_dollars);
          assert.equal(first.billedHourlyRateRoutineDollars, trade.billed_hourly_rate_routine_dollars);
        }
        assert.equal(data!.wage_vs_billed.rates_are_model_rates, true);
      });
    });

    describe("getEvals()", () => {
      it("defaults to rolling_30d and labels every metric's provenance", async () => {
        const { data } = await client.GET("/api/dispatch/analytics/evals");
        assert.equal(data!.period, "rolling_30d");
        assert.deepEqual(Object.keys(data!.provenance).sort(), Object.keys(data!.metrics).sort());
        assert.equal(data!.metrics.completion_rate.provenance, "unavailable", "no orders yet");
        assert.equal(data!.metrics.quote_turnaround_minutes.provenance, "self_reported_estimate");
        assert.equal(data!.estimated, true);
      });

      for (const period of ["rolling_7d", "rolling_30d", "rolling_90d"] as const) {
        it(`serves ${period} with a window of that length`, async () => {
          const { data } = await client.GET("/api/dispatch/analytics/evals", { params: { query: { period } } });
          const days = (Date.parse(data!.window.end) - Date.parse(data!.window.start)) / 86_400_000;
          assert.equal(days, Number(/\d+/.exec(period)![0]));
        });
      }

      it("refuses an unknown period with a 422 problem", async () => {
        const response = await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_1y`);
        const body = await response.json();
        assert.equal(response.status, 422);
        assert.equal(body.errors[0].pointer, "#/query/period");
      });

      it("is not rate limited", async () => {
        const statuses = new Set<number>();
        for (let i = 0; i < 210; i++)
          statuses.add((await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`)).status);
        assert.deepEqual([...statuses], [200]);
      });
    });

    describe("health and contract", () => {
      it("reports live and ready", async () => {
        assert.equal((await client.GET("/healthz")).data!.status, "ok");
        assert.equal((await client.GET("/readyz")).data!.checks!.database, "ok");
      });

      it("answers unknown routes, malformed JSON and oversized bodies with problems and no stack", async () => {
        const cases = [
          { init: { method: "GET" }, path: "/nope", status: 404 },
          {
            init: { method: "POST", body: "{oops", headers: { "content-type": "application/json" } },
            path: "/api/dispatch/v1/estimate",
            status: 400,
          },
          {
            init: {
              method: "POST",
              body: JSON.stringify({ pad: "x".repeat(70_000) }),
              headers: { "content-type": "application/json" },
            },
            path: "/api/dispatch/v1/estimate",
            status: 413,
          },
        ];
        for (const c of cases) {
          const response = await t.fetch(t.url + c.path, c.init);
          const text = await response.text();
          assert.equal(response.status, c.status, text);
          assert.equal(response.headers.get("content-type"), "application/problem+json");
          assert.doesNotMatch(text, /at .*\.(ts|js):\d+/);
        }
      });
    });
  });
}
