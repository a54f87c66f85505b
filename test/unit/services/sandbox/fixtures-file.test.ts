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

import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";

const key = mintApiKey("test");
const maxCapacity = { concurrent_jobs: 100, jobs_per_day: 1000 };
const capacity = { concurrent_jobs: 2, jobs_per_day: 6 };
const hours = { monday: [{ start: "08:00", end: "17:00" }], saturday: [{ start: "09:00", end: "13:00" }] };
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
        const defaults = {
          emergency_capable: false,
          active: true,
          working_hours: alwaysWorking,
          capacity: maxCapacity,
        };
        const withDefaults = { ...fixtures, contractors: [{ ...contractor, ...defaults }] };
        assert.deepEqual(readFixtures(write(name, fixtures), sandbox), withDefaults);
      });

    it("keeps a contractor's time zone, working hours and capacity", () => {
      const available = { ...contractor, time_zone: "America/Anchorage", working_hours: hours, capacity };
      const [read] = readFixtures(write("hours.yaml", { contractors: [available] }), sandbox).contractors ?? [];
      assert.deepEqual(read, { ...available, emergency_capable: false, active: true });
    });

    it("keeps a contractor's base ZIP", () => {
      const based = { ...contractor, base_zip: "99501" };
      const [read] = readFixtures(write("base.yaml", { contractors: [based] }), sandbox).contractors ?? [];
      assert.equal(read.base_zip, "99501");
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
        what: "a time zone Intl does not know",
        file: () => write("zone.yaml", { contractors: [{ ...contractor, time_zone: "America/Gotham" }] }),
        pattern: /zone\.yaml: \/contractors\/0\/time_zone "time_zone" \(America\/Gotham\) is not an IANA time zone/,
      },
      {
        what: "working hours ending before they start",
        file: () =>
          write("hours.json", {
            contractors: [
              contractor,
              { ...contractor, name: "Night", working_hours: { friday: [{ start: "22:00", end: "06:00" }] } },
            ],
          }),
        pattern:
          /hours\.json: \/contractors\/1\/working_hours\/friday\/0\/end "end" \(06:00\) must be after "start" \(22:00\)/,
      },
      {
        what: "a capacity out of bounds",
        file: () =>
          write("capacity.yaml", {
            contractors: [{ ...contractor, capacity: { concurrent_jobs: 101, jobs_per_day: 8 } }],
          }),
        pattern: /capacity\.yaml: \/contractors\/0\/capacity\/concurrent_jobs must be less than or equal to 100/,
      },
      {
        what: "a base ZIP in a state the contractor does not serve",
        file: () => write("base-state.yaml", { contractors: [{ ...contractor, base_zip: "78701" }] }),
        pattern: /base-state\.yaml: \/contractors\/0\/base_zip "base_zip" 78701 is in TX, not in a state served \(AK\)/,
      },
      {
        what: "a base ZIP the dataset does not list",
        file: () => write("base-unknown.json", { contractors: [{ ...contractor, base_zip: "99999" }] }),
        pattern: /base-unknown\.json: \/contractors\/0\/base_zip "base_zip" 99999 is not a US ZIP/,
      },
      {
        what: "a base ZIP that is not five digits",
        file: () => write("base-digits.yaml", { contractors: [{ ...contractor, base_zip: "9950" }] }),
        pattern: /base-digits\.yaml: \/contractors\/0\/base_zip/,
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
