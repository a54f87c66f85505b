// Exclusive lock on an embedded (PGlite) data directory: two servers on one directory would drift apart.
// The lock (proper-lockfile's directory, kept fresh while held) records its owner's pid, host and start, so a server
// restarted right after a crash (a supervisor, a container restart) takes over a dead owner's lock at once instead
// of failing until the lock goes stale. A live owner is refused; one this host cannot check (another host, a lock
// without a record) is waited out for the stale time.
import fs from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import lockfile, { type LockOptions } from "proper-lockfile";

/** Directory a pglite:// URL stores data in, or null for memory and non-PGlite URLs. */
export function pgliteDataDir(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith("pglite://")) return null;
  const location = databaseUrl.slice("pglite://".length);
  return location === "memory" || location === "" ? null : resolve(location);
}

/** Who holds a lock: `started` tells this process from an earlier one that had the same pid. */
export interface LockOwner {
  pid: number;
  host: string;
  started: number;
}

/** The file in the lock directory naming its owner. */
export const ownerFile = "owner.json";

/** This process as a lock owner. */
export const thisProcess = (): LockOwner => ({
  pid: process.pid,
  host: hostname(),
  started: Math.round(performance.timeOrigin),
});

type Done = (error: NodeJS.ErrnoException | null) => void;

/** proper-lockfile's file system, writing the owner record as the lock directory is made and removing the two
 * together (its own removal is rmdir, which refuses a directory that is not empty). */
function recordingOwner(owner: LockOwner) {
  return {
    ...fs,
    mkdir(path: string, done: Done) {
      fs.mkdir(path, (made) => {
        if (made) {
          done(made);
          return;
        }
        fs.writeFile(join(path, ownerFile), JSON.stringify(owner), (written) => {
          if (!written) done(null);
          else
            fs.rm(path, { recursive: true, force: true }, () => {
              done(written);
            });
        });
      });
    },
    rmdir(path: string, done: Done) {
      fs.rm(path, { recursive: true }, done);
    },
    rmdirSync(path: string) {
      fs.rmSync(path, { recursive: true, force: true });
    },
  };
}

const isOwner = (value: unknown): value is LockOwner =>
  typeof value === "object" &&
  value !== null &&
  "pid" in value &&
  Number.isInteger(value.pid) &&
  "host" in value &&
  typeof value.host === "string" &&
  "started" in value &&
  typeof value.started === "number";

/** The lock's recorded owner, or null when it has none that reads (a lock of an older server, a record being
 * written). */
function readOwner(lockPath: string): LockOwner | null {
  try {
    const owner: unknown = JSON.parse(fs.readFileSync(join(lockPath, ownerFile), "utf8"));
    return isOwner(owner) ? { pid: owner.pid, host: owner.host, started: owner.started } : null;
  } catch {
    return null;
  }
}

/** Whether a process with this pid runs on this host (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

/** "gone": a dead process of this host; "running": a live one (perhaps this very process); "unknown": not checkable. */
export function ownerState(owner: LockOwner | null, self = thisProcess()): "gone" | "running" | "unknown" {
  if (owner?.host !== self.host) return "unknown";
  if (owner.pid === self.pid) return owner.started === self.started ? "running" : "gone";
  return isRunning(owner.pid) ? "running" : "gone";
}

/** Removes the lock of a dead owner, unless another server replaced it since it was read. */
function removeIfStill(lockPath: string, owner: LockOwner): void {
  if (JSON.stringify(readOwner(lockPath)) === JSON.stringify(owner))
    fs.rmSync(lockPath, { recursive: true, force: true });
}

const isLocked = (error: unknown) => error instanceof Error && "code" in error && error.code === "ELOCKED";

function inUse(dir: string, lockPath: string, owner: LockOwner | null, cause: unknown): Error {
  const self = thisProcess();
  const who = !owner
    ? ""
    : owner.host === self.host
      ? `pid ${owner.pid} on this host, `
      : `pid ${owner.pid} on ${owner.host}, `;
  return new Error(
    `DATABASE_URL: the data directory ${dir} is in use by another dispatch server (${who}lock ${lockPath}). ` +
      "Stop that server, or give this one its own directory (DATABASE_URL=pglite://./other-dir).",
    { cause },
  );
}

/** Takes the lock: at once when it is free, stale or its owner is gone; after waiting up to the stale time when its
 * owner cannot be checked; never from a running owner. */
async function acquire(dir: string, lockPath: string, options: LockOptions): Promise<() => Promise<void>> {
  let refusal: unknown;
  try {
    return await lockfile.lock(dir, options);
  } catch (error) {
    if (!isLocked(error)) throw error;
    refusal = error;
  }
  const owner = readOwner(lockPath);
  const state = ownerState(owner);
  if (state === "running") throw inUse(dir, lockPath, owner, refusal);
  if (state === "gone" && owner) removeIfStill(lockPath, owner);
  const stale = options.stale ?? 10_000;
  const retries =
    state === "gone" ? 0 : { retries: Math.ceil(stale / 250) + 4, factor: 1, minTimeout: 250, maxTimeout: 250 };
  try {
    return await lockfile.lock(dir, { ...options, retries });
  } catch (error) {
    if (!isLocked(error)) throw error;
    throw inUse(dir, lockPath, readOwner(lockPath), error);
  }
}

/**
 * Locks the PGlite data directory for this process and returns the release function (a no-op for other databases).
 * The lock is refreshed while held; one whose owner died on this host is taken over at once, any other one left by
 * a process that died goes stale after `staleMs` and is taken over then.
 */
export async function lockDataDir(
  databaseUrl: string,
  onCompromised: (error: Error) => void,
  staleMs = 10_000,
): Promise<() => Promise<void>> {
  const dir = pgliteDataDir(databaseUrl);
  if (!dir) return () => Promise.resolve(); // Postgres: nothing to lock
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = `${dir}.lock`;
  const options = {
    lockfilePath: lockPath,
    stale: staleMs,
    realpath: false,
    onCompromised,
    fs: recordingOwner(thisProcess()),
  };
  return acquire(dir, lockPath, options);
}
