// The bench's target lines say met / not met from the figures, and say when a cell was not measured.
import assert from "node:assert/strict";
import { targetLines } from "../../../bench/targets.js";

describe("bench targets", () => {
  it("marks each target met or not met from the run's own figures", () => {
    const lines = targetLines(
      [
        { call: "quote", database: "postgres", ratio: 0.2, p99: 10 },
        { call: "order", database: "postgres", ratio: 0.13, p99: 30 },
        { call: "quote", database: "pglite", ratio: 0.11, p99: 12 },
      ],
      1.2,
      3.1,
      2.7,
    );
    assert.deepEqual(lines, [
      "- quote on Postgres: ÷ bare 0.200 (target ≥ 0.25): **not met**; p99 10 ms (≤ 25): met.",
      "- order on Postgres: ÷ bare 0.130 (target ≥ 0.12): met; p99 30 ms (≤ 25): **not met**.",
      "- quote on PGlite: ÷ bare 0.110 (target ≥ 0.1): met.",
      "- `dispatch --help` ÷ `node -e 0`: 1.20 (target ≤ 1.3): met.",
      "- estimate p50 under an 8-way evals flood ÷ idle: 3.10 (target ≤ 4): met.",
      "- `dispatch quote` round trip less server time ÷ `node -e 0`: 2.70 (target ≤ 2.5): **not met**.",
    ]);
  });

  it("says a target was not measured when its database did not run", () => {
    const lines = targetLines([{ call: "quote", database: "pglite", ratio: 0.2, p99: 5 }], Number.NaN);
    assert.equal(lines[0], "- quote on Postgres: not measured in this run (no postgres database).");
    assert.equal(lines[3], "- `dispatch --help` ÷ `node -e 0`: not measured.");
    assert.equal(lines[4], "- estimate p50 under an 8-way evals flood ÷ idle: not measured.");
    assert.equal(lines[5], "- `dispatch quote` round trip less server time ÷ `node -e 0`: not measured.");
  });
});
