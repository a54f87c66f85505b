// The audit log as a service: the signer, the background sequencer, and the reads the attest routes serve.
import type { Knex } from "knex";
import type { Config } from "../../config.js";
import type { NoteSigner } from "./note.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import { integratePending } from "./sequencer.js";
import { loadNoteSigner } from "./signing-key.js";
import { consistency, latestCheckpoint, verifySeal, type Checkpoint } from "./verify.js";

/** Integrates until `done` holds (at most 200 tries, 25 ms apart): another instance may hold the sequencer's lock. */
async function integrateUntil(integrate: () => Promise<number>, done: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await integrate();
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function createAuditLogService(db: Knex, config: Pick<Config, "audit">) {
  let signer: Promise<NoteSigner> | null = null;
  let sequencer: BackgroundJob | null = null;
  const getSigner = () => (signer ??= loadNoteSigner(db, config.audit.signingKey, config.audit.origin));
  const integrate = async () => integratePending(db, await getSigner(), config.audit.origin);
  const nothingPending = async () =>
    Number((await db("audit_pending").count<{ n: number | string }[]>("* as n"))[0].n) === 0;
  return {
    integrate,
    /** Integrates until nothing is pending (tests, shutdown); waits out another instance's batch. */
    flush: () => integrateUntil(integrate, nothingPending),
    async verifierKey(): Promise<string> {
      return (await getSigner()).verifierKey;
    },
    /** The newest checkpoint; a log without one gets its first now, so there is always one to serve. */
    async latestCheckpoint(): Promise<Checkpoint | null> {
      let latest = await latestCheckpoint(db);
      if (!latest) await integrateUntil(integrate, async () => (latest = await latestCheckpoint(db)) !== null);
      return latest;
    },
    verify: (seal: string) => verifySeal(db, seal),
    consistency: (first: number, second: number) => consistency(db, first, second),
    /** Start-up does not integrate: the sequencer's first run comes batchMs later. */
    start(onError: (error: unknown) => void): void {
      sequencer = startBackgroundJob(integrate, { intervalMs: config.audit.batchMs }, onError);
    },
    async stop(): Promise<void> {
      await sequencer?.stop();
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
