// Mocha global fixture (.mocharc.json `require`): runs once in mocha's own process before any test file, parallel
// workers or not. It makes the sources' PGlite snapshot (pglite-snapshot.ts) there, so no file's hook spends its
// timeout on it and parallel workers do not each make it at once. Loaded by every worker too, so it imports the
// snapshot code only when it runs.
import { pinnedOffset } from "../../server/services/shared/clock.js";

// DISPATCH_TEST_NOW: the first process of the run fixes the instant's real time, so the workers and every server
// and bin they start (which inherit the environment) read the same business time.
pinnedOffset();

export async function mochaGlobalSetup(): Promise<void> {
  const { ensureSourcesSnapshot } = await import("./pglite-snapshot.js");
  await ensureSourcesSnapshot();
}
