import { strict as assert } from "node:assert";
import { createLimiters, headers, policies, type PolicySettings } from "../../../server/plugins/limiters.js";
import { DomainError } from "../../../server/services/errors.js";

describe("rate limit", () => {
  describe("headers()", () => {
    const cases: [string, PolicySettings, number, number, string, string][] = [
      ["default", policies.default, 150, 42, '"default";q=200;w=60', '"default";r=150;t=0'],
      ["default", policies.default, 0, 42, '"default";q=200;w=60', '"default";r=0;t=42'],
      ["probe", policies.probe, 3, 9, '"probe";q=10;w=60', '"probe";r=3;t=0'],
      ["auth-failure", policies["auth-failure"], -4, 300, '"auth-failure";q=20;w=300', '"auth-failure";r=0;t=300'],
      ["oauth-register", policies["oauth-register"], 0, 1, '"oauth-register";q=10;w=3600', '"oauth-register";r=0;t=1'],
    ];
    for (const [name, settings, remaining, reset, policy, limit] of cases) {
      it(`describes ${name} with ${remaining} left as ${limit}`, () => {
        assert.deepEqual(headers(name, settings, remaining, reset), { "RateLimit-Policy": policy, RateLimit: limit });
      });
    }
  });

  describe("createLimiters() in memory", () => {
    it("counts the burst allowance into the remaining points", async () => {
      const limiters = createLimiters(null, { points: 2, burst: 3 });
      const first = await limiters.consume("default", "k1");
      assert.equal(first.error, undefined);
      assert.deepEqual(first.headers, { "RateLimit-Policy": '"default";q=5;w=60', RateLimit: '"default";r=4;t=0' });
    });

    it("refuses past primary + burst with a rate_limited DomainError whose Retry-After matches the header", async () => {
      const limiters = createLimiters(null, { points: 2, burst: 1 });
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limiters.consume("default", "k2"));
      assert.deepEqual(
        outcomes.map((o) => o.error === undefined),
        [true, true, true, false],
      );
      const { error, headers: refused } = outcomes[3];
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, "rate_limited");
      const retry = error.extra.retryAfterSeconds ?? 0;
      assert.ok(retry >= 1 && retry <= 60, String(retry));
      assert.equal(refused.RateLimit, `"default";r=0;t=${retry}`);
      assert.match(error.message, /2 requests per 60 s with bursts up to 3/);
    });

    it("keeps subjects apart and scales the other policies with the default budget", async () => {
      const limiters = createLimiters(null, { points: 200, burst: 0 });
      for (let i = 0; i < 20; i++) assert.equal((await limiters.consume("probe", "a")).error, undefined);
      assert.ok((await limiters.consume("probe", "a")).error);
      assert.equal((await limiters.consume("probe", "b")).error, undefined);
    });

    it("reports the points a subject has spent, and remembers a credential subject for later", async () => {
      const limiters = createLimiters(null, { points: 100, burst: 0 });
      assert.deepEqual(await limiters.status("auth-failure-address", "a"), { consumed: 0, refusal: null });
      for (let i = 0; i < 3; i++) await limiters.consume("auth-failure-address", "a");
      assert.equal((await limiters.status("auth-failure-address", "a")).consumed, 3);
      assert.equal(await limiters.remembered("a|cred"), false);
      await limiters.remember("a|cred");
      assert.equal(await limiters.remembered("a|cred"), true);
      assert.equal(await limiters.remembered("b|cred"), false);
    });

    it("reports a refusal without spending points only once the primary bucket is spent", async () => {
      const limiters = createLimiters(null, { points: 100, burst: 0 });
      for (let i = 0; i < 20; i++) await limiters.consume("auth-failure", "ip");
      assert.equal(await limiters.refusal("auth-failure", "other"), null);
      const refusal = await limiters.refusal("auth-failure", "ip");
      assert.equal(refusal?.kind, "rate_limited");
    });
  });
});
