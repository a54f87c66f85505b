// DISPATCH_FIXTURES files: a good file reads as its fixtures; each kind of bad file is refused naming the file and
// its first problem (the spawned-server tests see the same messages at start; this runs them in-process).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { mintApiKey } from "../../../../server/services/access/keys.js";
import { fixtureContractor } from "../../../fixtures/requests.js";
import { readFixtures, type SandboxFixtures } from "../../../../server/services/sandbox/fixtures-file.js";

const key = mintApiKey("test");
const contractor = fixtureContractor;
const fixtures = { contractors: [contractor], keys: [{ key, account: "fixture-co" }] } satisfies SandboxFixtures;
const sandbox = { sandbox: true };
const breakChecksum = (k: string) => k.slice(0, -1) + (k.endsWith("0") ? "1" : "0");

describe("sandbox fixtures file", () => {
  const dir = mkdtempSync(join(tmpdir(), "dispatch-fixtures-unit-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, content: unknown) => {
    const file = join(dir, name);
    const text =
      typeof content === "string" ? content : name.endsWith(".json") ? JSON.stringify(content) : stringify(content);
    writeFileSync(file, text);
    return file;
  };

  describe("readFixtures()", () => {
    for (const name of ["good.yaml", "good.json"])
      it(`returns the fixtures of a valid ${name.split(".")[1]} file, with the schema's defaults`, () => {
        const withDefaults = { ...fixtures, contractors: [{ ...contractor, emergency_capable: false, active: true }] };
        assert.deepEqual(readFixtures(write(name, fixtures), sandbox), withDefaults);
      });

    it("reads an empty file as no fixtures", () => {
      assert.deepEqual(readFixtures(write("empty.yaml", ""), sandbox), {});
    });

    const refused = [
      { what: "a missing file", file: () => join(dir, "absent.yaml"), pattern: /absent\.yaml: cannot read the file/ },
      {
        what: "a file that is not JSON",
        file: () => write("broken.json", "{"),
        pattern: /broken\.json: not valid JSON/,
      },
      {
        what: "a file that is not YAML",
        file: () => write("broken.yaml", "a: [b"),
        pattern: /broken\.yaml: not valid YAML/,
      },
      {
        what: "a trade the contract does not know",
        file: () => write("trade.yaml", { contractors: [{ ...contractor, trades: ["roofing", "chimney"] }] }),
        pattern: /trade\.yaml: \/contractors\/0\/trades\/1 must be one of \[/,
      },
      {
        what: "a key without its account",
        file: () => write("account.json", { keys: [{ key }] }),
        pattern: /account\.json: \/keys\/0\/account is required/,
      },
      {
        what: "a key with a wrong checksum",
        file: () => write("checksum.yaml", { keys: [{ key: breakChecksum(key), account: "a" }] }),
        pattern: /checksum\.yaml: \/keys\/0\/key has a wrong checksum/,
      },
    ];
    for (const { what, file, pattern } of refused)
      it(`refuses ${what}, naming DISPATCH_FIXTURES and the file`, () => {
        assert.throws(
          () => readFixtures(file(), sandbox),
          (error: Error) => {
            assert.match(error.message, /^DISPATCH_FIXTURES \S+/);
            assert.match(error.message, pattern);
            return true;
          },
        );
      });
  });
});
