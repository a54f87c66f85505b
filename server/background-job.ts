// The one background-job helper: runs a job again some time after each run ends (never two runs at once) until
// stopped. One error policy for every loop: a failed run goes to `onError` (the caller logs it, throttled) and the
// job carries on, waiting twice as long after each further failure (up to maxBackoffMs), so an outage costs log
// lines, not the worker, and a failing job does not hammer what it failed against. Every wait is stretched by a
// random part (jitter) so instances started together, or cut off by the same outage, do not poll in step.
import { exponentialBackoffMs } from "./services/shared/backoff.js";

export interface JobTiming {
  /** Delay after a run that did work, and after a nudge. */
  intervalMs: number;
  /** Delay after a run that found nothing to do (defaults to intervalMs). */
  idleMs?: number;
  /** Delay before the first run (defaults to intervalMs; 0 runs it at once). */
  firstRunMs?: number;
  /** Longest wait after consecutive failures (default 60 s, never less than the idle wait). */
  maxBackoffMs?: number;
  /** Each wait is lengthened by up to this fraction of itself, at random (default 0.1; 0 turns jitter off). */
  jitter?: number;
  /** Where the jitter's randomness comes from, in [0, 1) (default Math.random). */
  random?: () => number;
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
  /** Consecutive failed runs: the wait after one doubles per failure. */
  failures: number;
}

const defaultMaxBackoffMs = 60_000;
const defaultJitter = 0.1;

/** A wait lengthened by a random part of up to `jitter` of itself: never shorter than asked for. */
export function withJitter(delayMs: number, jitter: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (1 + jitter * random()));
}

/** The wait after a run: intervalMs after work or a nudge, idleMs after none, doubling per consecutive failure. */
function nextDelayMs(timing: JobTiming, job: JobState, did: number): number {
  const idle = timing.idleMs ?? timing.intervalMs;
  if (job.failures === 0) return did > 0 || job.nudged ? timing.intervalMs : idle;
  const cap = Math.max(idle, timing.maxBackoffMs ?? defaultMaxBackoffMs);
  return exponentialBackoffMs(idle, job.failures - 1, cap);
}

const idleState: JobState = {
  timer: null,
  dueAt: 0,
  running: null,
  busy: false,
  nudged: false,
  stopped: false,
  failures: 0,
};

/** One run: how much it did, or 0 after a failure, which is counted and handed to onError (never swallowed). */
async function runOnce(job: JobState, run: () => Promise<number>, onError: (error: unknown) => void) {
  try {
    const did = await run();
    job.failures = 0;
    return did;
  } catch (error) {
    job.failures++;
    onError(error);
    return 0;
  }
}

/** `run` answers how much it did: 0 is idle (as is a failure), so the next run waits idleMs unless nudged. */
export function startBackgroundJob(
  run: () => Promise<number>,
  timing: JobTiming,
  onError: (error: unknown) => void,
): BackgroundJob {
  const job: JobState = { ...idleState };
  const jitter = timing.jitter ?? defaultJitter;
  const schedule = (delayMs: number) => {
    if (job.stopped) return;
    if (job.timer) clearTimeout(job.timer);
    const waitMs = withJitter(delayMs, jitter, timing.random);
    job.dueAt = Date.now() + waitMs;
    job.timer = setTimeout(tick, waitMs);
  };
  const tick = () => {
    Object.assign(job, { timer: null, nudged: false, busy: true });
    let did = 0;
    job.running = runOnce(job, run, onError)
      .then((count) => {
        did = count;
      })
      .finally(() => {
        Object.assign(job, { running: null, busy: false });
        schedule(nextDelayMs(timing, job, did));
      });
  };
  schedule(timing.firstRunMs ?? timing.intervalMs);
  return {
    nudge() {
      if (job.busy) job.nudged = true;
      else if (job.timer && job.dueAt > Date.now() + timing.intervalMs * (1 + jitter)) schedule(timing.intervalMs);
    },
    async stop() {
      job.stopped = true;
      if (job.timer) clearTimeout(job.timer);
      job.timer = null;
      await job.running;
    },
  };
}
