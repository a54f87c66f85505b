// Configuration: sandbox mode's settings, the dependency bounds and credential budgets, and the start-up errors.
import assert from "node:assert/strict";
import { loadConfig } from "../../server/config.js";
import { mintApiKey } from "../../server/services/access/keys.js";

describe("config", () => {
  describe("loadConfig() in sandbox mode", () => {
    it("defaults to an in-memory database, a 500 ms sandbox clock and the account sandbox", () => {
      const config = loadConfig({ DISPATCH_SANDBOX: "1" });
      assert.deepEqual(
        [config.sandbox, config.databaseUrl, config.sandboxStepMs, config.sandboxAccount, config.seedDemo],
        [true, "pglite://memory", 500, "sandbox", true],
      );
      assert.equal(config.sandboxKey, null);
    });

    it("keeps an explicit DATABASE_URL and SANDBOX_STEP_MS", () => {
      const config = loadConfig({ DISPATCH_SANDBOX: "1", DATABASE_URL: "postgres://u@h/db", SANDBOX_STEP_MS: "0" });
      assert.deepEqual([config.databaseUrl, config.sandboxStepMs], ["postgres://u@h/db", 0]);
    });

    it("leaves the defaults of a server that is not a sandbox as they were", () => {
      const config = loadConfig({});
      assert.deepEqual([config.sandbox, config.databaseUrl, config.sandboxStepMs], [false, "pglite://./.data", 5000]);
    });

    it("takes a dispatch_test_ key the server could have issued", () => {
      const key = mintApiKey("test");
      assert.equal(loadConfig({ DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: key }).sandboxKey, key);
    });

    const refused = [
      { what: "a malformed key", env: { DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: "dispatch_test_abc" } },
      { what: "a live key", env: { DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: mintApiKey("live") } },
      { what: "a key outside sandbox mode", env: { DISPATCH_SANDBOX_KEY: mintApiKey("test") } },
      { what: "an account name the API refuses", env: { DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_ACCOUNT: "Not Ok" } },
      { what: "a DISPATCH_SANDBOX that is no boolean", env: { DISPATCH_SANDBOX: "maybe" } },
    ];
    for (const { what, env } of refused) {
      const variable = Object.keys(env).at(-1)!;
      it(`refuses ${what}, naming ${variable}`, () => {
        assert.throws(() => loadConfig(env), new RegExp(`^Error: Invalid configuration: ${variable}: `));
      });
    }
  });

  describe("loadConfig() for dependencies and credential budgets", () => {
    it("defaults to 500 ms Redis commands, 5 s statements, 256 requests in flight and the 20/200 credential budgets", () => {
      const config = loadConfig({});
      assert.deepEqual(
        [config.redisCommandTimeoutMs, config.databaseStatementTimeoutMs, config.maxRequestsInFlight],
        [500, 5000, 256],
      );
      assert.deepEqual(config.credentialFailures, { perCredential: 20, perAddress: 200 });
    });

    it("keeps the credential budgets when RATE_LIMIT_POINTS is raised", () => {
      const config = loadConfig({ RATE_LIMIT_POINTS: "100000", AUTH_FAILURES_PER_ADDRESS: "50" });
      assert.deepEqual(config.credentialFailures, { perCredential: 20, perAddress: 50 });
    });

    for (const [variable, value] of [
      ["REDIS_COMMAND_TIMEOUT_MS", "0"],
      ["DATABASE_STATEMENT_TIMEOUT_MS", "-1"],
      ["MAX_REQUESTS_IN_FLIGHT", "0"],
      ["AUTH_FAILURES_PER_CREDENTIAL", "many"],
    ] as const)
      it(`refuses ${variable}=${value}, naming it`, () => {
        assert.throws(
          () => loadConfig({ [variable]: value }),
          new RegExp(`^Error: Invalid configuration: ${variable}: `),
        );
      });
  });
});
