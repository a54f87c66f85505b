// The PGlite data directory lock, in-process: a second holder is refused naming the directory, a released lock is
// free again, and a database without a directory takes no lock. A lock whose recorded owner died on this host is
// taken over at once; a live owner is refused at once; an owner this host cannot check is waited out.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  lockDataDir,
  ownerFile,
  ownerState,
  pgliteDataDir,
  thisProcess,
  type LockOwner,
} from "../../../server/db/data-lock.js";

/** The pid of a process that has exited (a child run to its end). */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => {
      resolve(child.pid!);
    });
  });
}

/** A lock directory as a server that holds it (or held it) leaves it: fresh, with `owner` recorded. */
function plantLock(data: string, owner: LockOwner | null): void {
  mkdirSync(`${data}.lock`, { recursive: true });
  if (owner) writeFileSync(join(`${data}.lock`, ownerFile), JSON.stringify(owner));
}

const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const began = performance.now();
  const value = await work();
  return { value, ms: performance.now() - began };
};

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

    it("records this process as the lock's owner", async () => {
      const data = join(dir, "data");
      const release = await lockDataDir(`pglite://${data}`, fail);
      try {
        const owner = JSON.parse(readFileSync(join(`${data}.lock`, ownerFile), "utf8")) as LockOwner;
        assert.deepEqual(owner, thisProcess());
      } finally {
        await release();
      }
      assert.equal(existsSync(`${data}.lock`), false, "released with its record");
    });

    it("takes over at once a fresh lock whose owner died on this host (a crash, then a restart)", async () => {
      const data = join(dir, "data");
      plantLock(data, { ...thisProcess(), pid: await deadPid() });
      const { value: release, ms } = await timed(() => lockDataDir(`pglite://${data}`, fail));
      await release();
      assert.ok(ms < 2_000, `took ${Math.round(ms)} ms: it waited for the lock to go stale`);
    });

    it("takes over at once a lock recorded by an earlier process with this pid (a container restarted)", async () => {
      const data = join(dir, "data");
      plantLock(data, { ...thisProcess(), started: thisProcess().started - 60_000 });
      const { value: release, ms } = await timed(() => lockDataDir(`pglite://${data}`, fail));
      await release();
      assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
    });

    it("refuses at once a lock whose owner runs on this host, naming its pid", async () => {
      const data = join(dir, "data");
      const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
      try {
        plantLock(data, { ...thisProcess(), pid: live.pid!, started: 1 });
        const { value: refusal, ms } = await timed(() =>
          lockDataDir(`pglite://${data}`, fail).then(
            () => null,
            (error: unknown) => error as Error,
          ),
        );
        assert.ok(refusal, "the lock was taken from a running owner");
        assert.match(refusal.message, new RegExp(`in use by another dispatch server \\(pid ${live.pid} on this host`));
        assert.ok(ms < 2_000, `took ${Math.round(ms)} ms to refuse`);
      } finally {
        live.kill("SIGKILL");
      }
      assert.ok(existsSync(`${data}.lock`), "the running owner's lock is left alone");
    });

    it("waits out the stale time of a lock it cannot check (another host's), then takes it over", async () => {
      const data = join(dir, "data");
      plantLock(data, { pid: 1, host: "another-host", started: 1 });
      const { value: release, ms } = await timed(() => lockDataDir(`pglite://${data}`, fail, 2_000));
      await release();
      assert.ok(ms >= 1_500 && ms < 6_000, `took ${Math.round(ms)} ms with a 2 s stale time`);
    });

    it("refuses a lock it cannot check that its holder keeps fresh, after the stale time", async () => {
      const data = join(dir, "data");
      plantLock(data, null); // a lock of a server from before owner records
      const touch = setInterval(() => {
        const now = new Date();
        utimesSync(`${data}.lock`, now, now);
      }, 200);
      try {
        const { value: refusal, ms } = await timed(() =>
          lockDataDir(`pglite://${data}`, fail, 2_000).then(
            () => null,
            (error: unknown) => error as Error,
          ),
        );
        assert.match(refusal?.message ?? "taken", /in use by another dispatch server \(lock /);
        assert.ok(ms >= 2_000, `refused after ${Math.round(ms)} ms, before the stale time`);
      } finally {
        clearInterval(touch);
      }
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

  describe("ownerState()", () => {
    const self: LockOwner = { pid: 4242, host: "here", started: 1000 };
    it("is running for this very process, gone for an earlier one with its pid, unknown elsewhere", () => {
      assert.equal(ownerState(self, self), "running");
      assert.equal(ownerState({ ...self, started: 999 }, self), "gone");
      assert.equal(ownerState({ ...self, host: "there" }, self), "unknown");
      assert.equal(ownerState(null, self), "unknown");
    });
  });
});
