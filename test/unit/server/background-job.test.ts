import assert from "node:assert/strict";
import { startBackgroundJob, withJitter } from "../../../server/background-job.js";
import { sleep } from "../../helpers/wait.js";

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
      await sleep(400);
      await job.stop();
      assert.equal(runs.length, 4, `runs at ${runs.join(", ")} ms`); // three with work, one idle, then the long wait
    });

    it("brings an idle wait forward to intervalMs when nudged", async () => {
      let runs = 0;
      const job = startBackgroundJob(() => Promise.resolve((runs++, 0)), { intervalMs: 20, idleMs: 5000 }, noError);
      await sleep(100);
      assert.equal(runs, 1);
      job.nudge();
      await sleep(100);
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
            await sleep(10);
          }
          return 0;
        },
        { intervalMs: 20, idleMs: 5000 },
        noError,
      );
      await sleep(150);
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
          await sleep(50);
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

    it("logs every failure and keeps going, waiting twice as long after each consecutive failure", async () => {
      const errors: unknown[] = [];
      const starts: number[] = [];
      const t0 = Date.now();
      const job = startBackgroundJob(
        () => {
          starts.push(Date.now() - t0);
          return starts.length <= 3
            ? Promise.reject(new Error(`step ${String(starts.length)} failed`))
            : Promise.resolve(0);
        },
        { intervalMs: 40, firstRunMs: 0, maxBackoffMs: 1000 },
        (error) => errors.push(error),
      );
      await sleep(600);
      await job.stop();
      assert.deepEqual(
        errors.map((e) => (e as Error).message),
        ["step 1 failed", "step 2 failed", "step 3 failed"],
      );
      assert.ok(starts.length >= 5, `runs at ${starts.join(", ")} ms`); // it carried on after the failures
      const gaps = starts.slice(1, 4).map((at, i) => at - starts[i]);
      // 40, 80, 160 ms after failures 1, 2, 3; then back to 40 after a success
      assert.ok(gaps[0] >= 38 && gaps[1] >= 78 && gaps[2] >= 158, `gaps ${gaps.join(", ")} ms`);
      assert.ok(starts[4] - starts[3] < 150, `after a success the wait is intervalMs again (${starts.join(", ")})`);
    });

    it("runs at once with firstRunMs 0", async () => {
      let runs = 0;
      const job = startBackgroundJob(() => Promise.resolve((runs++, 0)), { intervalMs: 5000, firstRunMs: 0 }, noError);
      await sleep(50);
      await job.stop();
      assert.equal(runs, 1);
    });

    it("stretches each wait by the jitter's random part, never shortening it", async () => {
      const starts: number[] = [];
      const draws: number[] = [];
      const job = startBackgroundJob(
        () => Promise.resolve((starts.push(Date.now()), 1)),
        {
          intervalMs: 30,
          firstRunMs: 0,
          jitter: 1,
          random: () => (draws.push(0.99), 0.99), // every wait close to twice intervalMs
        },
        noError,
      );
      await sleep(300);
      await job.stop();
      assert.ok(draws.length >= 2, "each wait draws its jitter");
      const gaps = starts.slice(1).map((at, i) => at - starts[i]);
      assert.ok(gaps.length >= 1 && gaps.every((gap) => gap >= 58), `gaps ${gaps.join(", ")} ms`);
    });
  });

  describe("withJitter()", () => {
    const cases = [
      { delayMs: 1000, jitter: 0.1, draw: 0, expected: 1000 },
      { delayMs: 1000, jitter: 0.1, draw: 0.5, expected: 1050 },
      { delayMs: 1000, jitter: 0.1, draw: 0.999, expected: 1100 },
      { delayMs: 1000, jitter: 0, draw: 0.7, expected: 1000 },
      { delayMs: 0, jitter: 0.5, draw: 0.7, expected: 0 },
    ];
    for (const { delayMs, jitter, draw, expected } of cases)
      it(`turns ${delayMs} ms with jitter ${jitter} and draw ${draw} into ${expected} ms`, () => {
        assert.equal(
          withJitter(delayMs, jitter, () => draw),
          expected,
        );
      });
  });
});
