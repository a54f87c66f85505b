// dispatch-server's flags come from the configuration's definition: one per variable, booleans as --x / --no-x.
import assert from "node:assert/strict";
import { Command } from "commander";
import { schema } from "../../../server/config.js";
import { addConfigFlags, envWithFlags, flagName } from "../../../server/bin/flags.js";

const parse = (args: string[]) =>
  addConfigFlags(new Command().exitOverride()).parse(args, { from: "user" }).opts<Record<string, unknown>>();

describe("dispatch-server flags", () => {
  it("has one flag for every variable of the configuration schema", () => {
    const command = addConfigFlags(new Command());
    const longs = new Set(command.options.map((option) => option.long));
    const variables = Object.keys((schema.describe() as { keys: Record<string, unknown> }).keys);
    assert.ok(variables.length > 30);
    for (const variable of variables) assert.ok(longs.has(`--${flagName(variable)}`), variable);
  });

  it("describes each flag with its variable's meaning and default from the configuration table, never only 'sets X'", () => {
    const command = addConfigFlags(new Command());
    const description = (long: string) => command.options.find((option) => option.long === long)!.description;
    assert.equal(description("--port"), "PORT: where to listen (default 3000)");
    assert.match(description("--webhook-allow-private"), /private and loopback.* \(default false\)$/);
    assert.match(
      description("--database-url"),
      /^DATABASE_URL: pglite:\/\/memory for in-memory.* \(default pglite:\/\/\.\/\.data\)$/,
    );
    assert.equal(description("--redis-url").includes("(default"), false, "no default shown for an unset variable");
    for (const option of command.options.filter((o) => !o.long?.startsWith("--no-"))) {
      assert.doesNotMatch(option.description, /^sets |see README/, option.long);
      assert.ok(!option.description.includes("`"), option.description);
    }
  });

  it("writes the flags given over the environment and leaves the others alone", () => {
    const env = envWithFlags(parse(["--port", "4321", "--database-url", "pglite://memory"]), {
      PORT: "80",
      LOG_LEVEL: "warn",
    });
    assert.equal(env.PORT, "4321");
    assert.equal(env.DATABASE_URL, "pglite://memory");
    assert.equal(env.LOG_LEVEL, "warn");
  });

  it("turns boolean variables into --x and --no-x", () => {
    assert.equal(envWithFlags(parse(["--no-seed-demo"]), {}).DISPATCH_SEED_DEMO, "false");
    assert.equal(envWithFlags(parse(["--sandbox"]), {}).DISPATCH_SANDBOX, "true");
    assert.equal(envWithFlags(parse(["--fixtures", "f.yaml"]), {}).DISPATCH_FIXTURES, "f.yaml");
    assert.equal(envWithFlags(parse(["--webhook-allow-private"]), {}).WEBHOOK_ALLOW_PRIVATE, "true");
    assert.equal(envWithFlags(parse([]), { DISPATCH_SEED_DEMO: "0" }).DISPATCH_SEED_DEMO, "0");
  });
});
