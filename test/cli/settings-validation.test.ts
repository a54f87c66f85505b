// Settings that can only fail are usage errors (exit 2) naming where they came from, never "network error" (exit 3).
import assert from "node:assert/strict";
import { mkdir, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runCli } from "./run-cli.js";

const tmp = fileURLToPath(new URL(`../tmp/cli-settings-${process.pid}/`, import.meta.url));

describe("cli settings validation", function () {
  this.timeout(30_000);
  const file = `${tmp}config.json`;
  beforeEach(async () => {
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
  });
  after(() => rm(tmp, { recursive: true, force: true }));

  const cases: { name: string; args: string[]; env: Record<string, string>; source: RegExp }[] = [
    {
      name: "--base-url without a scheme",
      args: ["--base-url", "127.0.0.1:3000", "index"],
      env: {},
      source: /--base-url/,
    },
    {
      name: "a non-http base URL in the environment",
      args: ["index"],
      env: { DISPATCH_BASE_URL: "ftp://x" },
      source: /DISPATCH_BASE_URL/,
    },
    { name: "a non-ASCII key", args: ["--api-key", "clé-secrète", "index"], env: {}, source: /--api-key.*ASCII/ },
    {
      name: "a key with a space in the environment",
      args: ["index"],
      env: { DISPATCH_API_KEY: "a b" },
      source: /DISPATCH_API_KEY/,
    },
  ];
  for (const { name, args, env, source } of cases)
    it(`exits 2 naming the source for ${name}`, async () => {
      const run = await runCli(args, { env });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, source);
      assert.doesNotMatch(run.stderr, /network error/);
    });

  it("config set base-url refuses a value that is not a URL and saves nothing", async () => {
    const run = await runCli(["config", "set", "base-url", "not-a-url"], { env: { DISPATCH_CONFIG: file } });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /base-url.*not an http\(s\) URL/);
    await assert.rejects(readFile(file, "utf8"), { code: "ENOENT" });
  });
});
