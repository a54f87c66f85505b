// The suites' waits: `until` returns as soon as its condition holds (not after a fixed time) and fails with what it
// waited for; `untilValue` hands back the first answer.
import assert from "node:assert/strict";
import { sleep, until, untilValue } from "../../helpers/wait.js";

describe("test waits", () => {
  it("until returns once the condition holds, checking every intervalMs", async () => {
    let checks = 0;
    const started = Date.now();
    await until(() => ++checks === 3, { intervalMs: 5 });
    assert.equal(checks, 3);
    assert.ok(Date.now() - started < 1000);
  });

  it("until fails after timeoutMs naming what it waited for, read when it fails", async () => {
    let state = "early";
    const waiting = until(() => false, { timeoutMs: 30, intervalMs: 5, message: () => `the thing (${state})` });
    state = "late";
    await assert.rejects(waiting, /timed out after 30 ms waiting for the thing \(late\)/);
  });

  it("untilValue returns the first defined answer, awaiting async checks", async () => {
    let calls = 0;
    assert.equal(await untilValue(async () => (++calls < 2 ? undefined : "found"), { intervalMs: 5 }), "found");
  });

  it("sleep waits at least its time", async () => {
    const started = Date.now();
    await sleep(20);
    assert.ok(Date.now() - started >= 19);
  });
});
