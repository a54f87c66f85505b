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

/** `run` answers how much it did: 0 is idle, so the next run waits idleMs unless nudged meanwhile. */
export function startBackgroundJob(
  run: () => Promise<number>,
  timing: JobTiming,
  onError: (error: unknown) => void,
): BackgroundJob {
  let timer: NodeJS.Timeout | null = null;
  let dueAt = 0;
  let running: Promise<void> | null = null;
  let nudged = false; // during a run: its snapshot may predate the nudge's write, so go again soon
  let stopped = false;
  const schedule = (delayMs: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    dueAt = Date.now() + delayMs;
    timer = setTimeout(tick, delayMs);
  };
  const tick = () => {
    timer = null;
    nudged = false;
    let did = 1;
    running = run()
      .then((count) => void (did = count), onError)
      .finally(() => {
        running = null;
        schedule(did > 0 || nudged ? timing.intervalMs : (timing.idleMs ?? timing.intervalMs));
      });
  };
  schedule(timing.intervalMs);
  return {
    nudge() {
      if (running) nudged = true;
      else if (timer && dueAt > Date.now() + timing.intervalMs) schedule(timing.intervalMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
