// The one background-job helper: runs a job again some time after each run ends (never two runs at once) until
// stopped. Errors go to `onError` and the next tick retries, so an outage costs a log line, not the worker.

export interface JobTiming {
  /** Delay after a run that did work, and after a nudge. */
  intervalMs: number;
  /** Delay after a run that found nothing to do (defaults to intervalMs). */
  idleMs?: number;
}

export interface BackgroundJob {
  /** Asks for a run within intervalMs rather than after an idle wait; no effect once stopped. */
  nudge(): void;
  stop(): Promise<void>;
}

interface JobState {
  timer: NodeJS.Timeout | null;
  dueAt: number;
  running: Promise<void> | null;
  /** From the moment a run starts (its synchronous part included) until it has ended. */
  busy: boolean;
  /** Nudged during a run: the run's snapshot may predate the nudge's write, so go again soon. */
  nudged: boolean;
  stopped: boolean;
}

/** `run` answers how much it did: 0 is idle (as is a failure), so the next run waits idleMs unless nudged. */
export function startBackgroundJob(
  run: () => Promise<number>,
  timing: JobTiming,
  onError: (error: unknown) => void,
): BackgroundJob {
  const job: JobState = { timer: null, dueAt: 0, running: null, busy: false, nudged: false, stopped: false };
  const schedule = (delayMs: number) => {
    if (job.stopped) return;
    if (job.timer) clearTimeout(job.timer);
    job.dueAt = Date.now() + delayMs;
    job.timer = setTimeout(tick, delayMs);
  };
  const tick = () => {
    Object.assign(job, { timer: null, nudged: false, busy: true });
    let did = 0;
    job.running = run()
      .then((count) => void (did = count), onError)
      .finally(() => {
        Object.assign(job, { running: null, busy: false });
        schedule(did > 0 || job.nudged ? timing.intervalMs : (timing.idleMs ?? timing.intervalMs));
      });
  };
  schedule(timing.intervalMs);
  return {
    nudge() {
      if (job.busy) job.nudged = true;
      else if (job.timer && job.dueAt > Date.now() + timing.intervalMs) schedule(timing.intervalMs);
    },
    async stop() {
      job.stopped = true;
      if (job.timer) clearTimeout(job.timer);
      job.timer = null;
      await job.running;
    },
  };
}
