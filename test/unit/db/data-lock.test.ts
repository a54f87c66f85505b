// The PGlite data directory lock, in-process: a second holder is refused naming the directory, a released lock is
// free again, and a database without a directory takes no lock.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockDataDir, pgliteDataDir } from "../../../server/db/data-lock.js";

describe("PGlite data directory lock", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "dispatch-lock-unit-"))));
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const fail = (error: Error) => {
    throw error;
  };

  describe("lockDataDir()", () => {
    it("refuses a second holder, naming DATABASE_URL, the directory and its lock", async () => {
      const url = `pglite://${join(dir, "data")}`;
      const release = await lockDataDir(url, fail);
      try {
        await assert.rejects(lockDataDir(url, fail), (error: Error) => {
          assert.match(error.message, /^DATABASE_URL: the data directory .* is in use by another dispatch server/);
          assert.ok(error.message.includes(`${join(dir, "data")}.lock`), error.message);
          return true;
        });
      } finally {
        await release();
      }
      assert.equal(existsSync(`${join(dir, "data")}.lock`), false);
      await (
        await lockDataDir(url, fail)
      )();
    });

    it("takes no lock for memory or Postgres", async () => {
      for (const url of ["pglite://memory", "postgres://dispatch@127.0.0.1:5432/dispatch"]) {
        assert.equal(pgliteDataDir(url), null);
        await (
          await lockDataDir(url, fail)
        )();
      }
    });
  });
});
