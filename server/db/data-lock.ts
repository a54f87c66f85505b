// Exclusive lock on an embedded (PGlite) data directory: two servers on one directory would drift apart.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import lockfile from "proper-lockfile";

/** Directory a pglite:// URL stores data in, or null for memory and non-PGlite URLs. */
export function pgliteDataDir(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith("pglite://")) return null;
  const location = databaseUrl.slice("pglite://".length);
  return location === "memory" || location === "" ? null : resolve(location);
}

/**
 * Locks the PGlite data directory for this process and returns the release function (a no-op for other databases).
 * The lock is refreshed while held; one left by a process that died goes stale after `staleMs` and is taken over.
 */
export async function lockDataDir(
  databaseUrl: string,
  onCompromised: (error: Error) => void,
  staleMs = 10_000,
): Promise<() => Promise<void>> {
  const dir = pgliteDataDir(databaseUrl);
  if (!dir) return () => Promise.resolve(); // Postgres: nothing to lock
  mkdirSync(dir, { recursive: true });
  const lockPath = `${dir}.lock`;
  try {
    return await lockfile.lock(dir, { lockfilePath: lockPath, stale: staleMs, realpath: false, onCompromised });
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "ELOCKED")) throw error;
    throw new Error(
      `DATABASE_URL: the data directory ${dir} is in use by another dispatch server (lock ${lockPath}). ` +
        "Stop that server, or give this one its own directory (DATABASE_URL=pglite://./other-dir).",
      { cause: error },
    );
  }
}
