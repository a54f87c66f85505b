// Migration files: each has a timestamp of its own (knex applies them in name order, and two files on one timestamp
// leave that order to the rest of their names), and each rename maps a name databases recorded to a file of today.
import assert from "node:assert/strict";
import { migrationSource, renamedMigrations } from "../../../server/db/migrate.js";

const names = async () =>
  (await migrationSource.getMigrations([])).map((file) => migrationSource.getMigrationName(file));
const timestampOf = (name: string) => name.slice(0, name.indexOf("_"));

describe("migrations", () => {
  it("gives each migration a timestamp of its own", async () => {
    const byTimestamp = new Map<string, string[]>();
    for (const name of await names())
      byTimestamp.set(timestampOf(name), [...(byTimestamp.get(timestampOf(name)) ?? []), name]);
    assert.deepEqual(
      [...byTimestamp.values()].filter((shared) => shared.length > 1),
      [],
    );
  });

  it("renames recorded names to files of today, keeping the order they ran in", async () => {
    const today = await names();
    for (const [recorded, renamed] of Object.entries(renamedMigrations)) {
      assert.ok(today.includes(renamed), `${renamed} is not a migration file`);
      assert.ok(!today.includes(recorded), `${recorded} is still a migration file`);
    }
    // Today's list with each renamed file under its recorded name sorts the same: no migration changed places.
    const asRecorded = today.map(
      (name) => Object.entries(renamedMigrations).find(([, renamed]) => renamed === name)?.[0] ?? name,
    );
    assert.deepEqual(
      [...asRecorded].sort().map((name) => renamedMigrations[name] ?? name),
      today,
    );
  });
});
