// The sources' PGlite snapshot: `pglite://memory` restores a migrated, seeded data directory from
// pglite-snapshot.tar.gz beside server/ when the file is there (server/db/snapshot.ts), as the built server restores
// the build's. The suites run the server from its sources, where nothing makes that file, so every in-memory test
// server ran initdb and every migration: about 2.5 s of CPU each, on a 2-core machine running hundreds of them. This
// makes the file as the build makes its own (same writeSnapshot, same demo pool), once per change of the server's
// sources or of the lockfile: a content hash beside it says which sources it was made from. Each process that starts a
// mocha run makes it before any file runs (global-setup.ts), without a hook's timeout; each process that starts a
// test server checks it once more (a file run without that setup makes it then), writing to a file of its own
// renamed into place, so a server never reads half of one.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { snapshotFile, writeSnapshot } from "../../server/db/snapshot.js";
import { createContractorService } from "../../server/services/dispatch/contractors.js";
import { seedDemoContractors } from "../../server/services/sandbox/demo-contractors.js";

const serverDir = fileURLToPath(new URL("../../server/", import.meta.url));
const packageLock = fileURLToPath(new URL("../../package-lock.json", import.meta.url));
const hashFile = `${snapshotFile}.sources-sha256`;

/** server/**.ts (not dist/, not node_modules/), sorted: what migrations and seeding are made of, and more. */
function serverSources(dir = serverDir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return ["dist", "node_modules"].includes(entry.name) ? [] : serverSources(path);
      return entry.name.endsWith(".ts") ? [path] : [];
    })
    .sort();
}

/** The hash of the server's sources and the lockfile (PGlite's version decides the data directory's format). */
function sourcesHash(): string {
  const hash = createHash("sha256");
  for (const file of [...serverSources(), packageLock]) hash.update(`${file}\n`).update(readFileSync(file));
  return hash.digest("hex");
}

async function writeSourcesSnapshot(hash: string): Promise<void> {
  const unique = `${String(process.pid)}-${String(Date.now())}`;
  const file = `${snapshotFile}.${unique}.tmp`;
  await writeSnapshot(file, async (db) => {
    await seedDemoContractors(createContractorService(db));
  });
  renameSync(file, snapshotFile);
  writeFileSync(`${hashFile}.${unique}.tmp`, hash);
  renameSync(`${hashFile}.${unique}.tmp`, hashFile);
}

let ready: Promise<void> | undefined;

/** Makes sure pglite://memory restores a snapshot of the current sources (once per process). */
export function ensureSourcesSnapshot(): Promise<void> {
  ready ??= (async () => {
    const hash = sourcesHash();
    const current = existsSync(snapshotFile) && existsSync(hashFile) && readFileSync(hashFile, "utf8") === hash;
    if (!current) await writeSourcesSnapshot(hash);
  })();
  return ready;
}
