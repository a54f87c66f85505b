// The audit log as a service: the signer, the background sequencer, and the reads the attest routes serve.
import type { Knex } from "knex";
import type { Config } from "../../config.js";
import type { NoteSigner } from "./note.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import { integratePending } from "./sequencer.js";
import { loadNoteSigner } from "./signing-key.js";
import { consistency, latestCheckpoint, verifySeal } from "./verify.js";

export function createAuditLogService(db: Knex, config: Pick<Config, "audit">) {
  let signer: Promise<NoteSigner> | null = null;
  let sequencer: BackgroundJob | null = null;
  const getSigner = () => (signer ??= loadNoteSigner(db, config.audit.signingKey, config.audit.origin));
  const integrate = async () => integratePending(db, await getSigner(), config.audit.origin);
  return {
    integrate,
    /** Integrates until nothing is pending (tests, shutdown); waits out another instance's batch. */
    async flush(): Promise<void> {
      for (let attempt = 0; attempt < 200; attempt++) {
        await integrate();
        const left = await db("audit_pending").count<{ n: number | string }[]>("* as n");
        if (Number(left[0].n) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async verifierKey(): Promise<string> {
      return (await getSigner()).verifierKey;
    },
    latestCheckpoint: () => latestCheckpoint(db),
    verify: (seal: string) => verifySeal(db, seal),
    consistency: (first: number, second: number) => consistency(db, first, second),
    async start(onError: (error: unknown) => void): Promise<void> {
      // A log without a checkpoint gets its first (signing any records its migrations wrote) before serving. One with
      // a checkpoint is served at once: what is pending is integrated by the sequencer's first run, batchMs later, as
      // any new record is, rather than holding up start-up.
      if (!(await latestCheckpoint(db))) await integrate();
      sequencer = startBackgroundJob(integrate, { intervalMs: config.audit.batchMs }, onError);
    },
    async stop(): Promise<void> {
      await sequencer?.stop();
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
