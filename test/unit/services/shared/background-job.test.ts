import assert from "node:assert/strict";
import { startBackgroundJob } from "../../../../server/services/shared/background-job.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noError = (error: unknown) => {
  assert.fail(`unexpected error: ${String(error)}`);
};

describe("background job", () => {
  describe("startBackgroundJob()", () => {
    it("runs again after intervalMs while a run does work, and waits idleMs after an idle run", async () => {
      const runs: number[] = [];
      const started = Date.now();
      let work = 3;
      const job = startBackgroundJob(
        () => {
          runs.push(Date.now() - started);
          return Promise.resolve(work-- > 0 ? 1 : 0);
        },
        { intervalMs: 20, idleMs: 1000 },
        noError,
      );
      await pause(400);
      await job.stop();
      assert.equal(runs.length, 4, `runs at ${runs.join(", ")} ms`); // three with work, one idle, then the long wait
    });

    it("brings an idle wait forward to intervalMs when nudged", async () => {
      let runs = 0;
      const job = startBackgroundJob(() => Promise.resolve((runs++, 0)), { intervalMs: 20, idleMs: 5000 }, noError);
      await pause(100);
      assert.equal(runs, 1);
      job.nudge();
      await pause(100);
      await job.stop();
      assert.equal(runs, 2);
    });

    it("goes again soon after a run that was nudged while it ran, though it found nothing", async () => {
      let runs = 0;
      const job = startBackgroundJob(
        async () => {
          runs++;
          if (runs === 1) {
            job.nudge(); // a write lands while this run's snapshot is already taken
            await pause(10);
          }
          return 0;
        },
        { intervalMs: 20, idleMs: 5000 },
        noError,
      );
      await pause(150);
      await job.stop();
      assert.equal(runs, 2);
    });

    it("hands a failed run's error to onError, keeps running, and stop() waits for the run in flight", async () => {
      const errors: unknown[] = [];
      let finished = false;
      let secondStarted: () => void = () => undefined;
      const second = new Promise<void>((resolve) => (secondStarted = resolve));
      let runs = 0;
      const job = startBackgroundJob(
        async () => {
          if (++runs === 1) throw new Error("database down");
          secondStarted();
          await pause(50);
          finished = true;
          return 0;
        },
        { intervalMs: 10, idleMs: 10 },
        (error) => errors.push(error),
      );
      await second;
      await job.stop();
      assert.equal((errors[0] as Error).message, "database down");
      assert.ok(finished, "stop() returned before the run in flight ended");
    });
  });
});
