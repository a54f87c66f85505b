// `dispatch config` and profiles: the file, its mode, and flag > environment > profile precedence.
import assert from "node:assert/strict";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { oneLine, runCli, startRecorder, type Recorder } from "./run-cli.js";

const tmp = fileURLToPath(new URL(`../tmp/cli-config-${process.pid}/`, import.meta.url));

describe("cli", function () {
  this.timeout(30_000);
  let server: Recorder;
  let env: Record<string, string>;
  const file = `${tmp}config.json`;

  before(async () => {
    server = await startRecorder();
  });
  beforeEach(async () => {
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    env = { DISPATCH_CONFIG: file };
    server.requests.length = 0;
  });
  after(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  describe("config", () => {
    it("set writes the profile to a file with mode 0600", async () => {
      const run = await runCli(["config", "set", "api-key", "dispatch_test_secret1234", "--profile", "work"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(await readFile(file, "utf8")), {
        profiles: { work: { "api-key": "dispatch_test_secret1234" } },
      });
      assert.equal((await stat(file)).mode & 0o777, 0o600);
    });

    it("get prints the raw value and list masks secrets", async () => {
      await runCli(["config", "set", "api-key", "dispatch_test_secret1234"], { env });
      await runCli(["config", "set", "base-url", "http://example.test"], { env });
      const get = await runCli(["config", "get", "api-key"], { env });
      assert.equal(get.stdout, "dispatch_test_secret1234\n");
      const list = await runCli(["config", "list"], { env });
      assert.deepEqual(JSON.parse(list.stdout), {
        default: { "api-key": "****1234", "base-url": "http://example.test" },
      });
    });

    it("rejects an unknown key with exit 2", async () => {
      const run = await runCli(["config", "set", "colour", "blue"], { env });
      assert.equal(run.code, 2);
      assert.ok(oneLine(run.stderr));
      assert.match(run.stderr, /unknown config key "colour"/);
    });

    it("uses $XDG_CONFIG_HOME/dispatch/config.json without DISPATCH_CONFIG", async () => {
      await runCli(["config", "set", "output", "yaml"], { env: { DISPATCH_CONFIG: "", XDG_CONFIG_HOME: tmp } });
      assert.deepEqual(JSON.parse(await readFile(`${tmp}dispatch/config.json`, "utf8")), {
        profiles: { default: { output: "yaml" } },
      });
    });
  });

  describe("profiles", () => {
    beforeEach(async () => {
      await runCli(["config", "set", "base-url", server.url, "--profile", "local"], { env });
      await runCli(["config", "set", "api-key", "dispatch_test_profile", "--profile", "local"], { env });
    });

    it("takes base URL and key from --profile", async () => {
      const run = await runCli(["index", "--profile", "local"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0].headers["x-api-key"], "dispatch_test_profile");
    });

    it("takes the profile from DISPATCH_PROFILE", async () => {
      await runCli(["index"], { env: { ...env, DISPATCH_PROFILE: "local" } });
      assert.equal(server.requests.length, 1);
    });

    it("lets the environment override the profile, and a flag override both", async () => {
      await runCli(["index", "--profile", "local"], { env: { ...env, DISPATCH_API_KEY: "from_env" } });
      await runCli(["index", "--profile", "local", "--api-key", "from_flag"], {
        env: { ...env, DISPATCH_API_KEY: "from_env" },
      });
      assert.deepEqual(
        server.requests.map((r) => r.headers["x-api-key"]),
        ["from_env", "from_flag"],
      );
    });

    it("exits 2 for an unknown profile", async () => {
      const run = await runCli(["index", "--profile", "nope"], { env });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /no profile "nope"/);
    });
  });
});
