// The performance targets of `npm run bench`, checked against the figures of the same run.

export interface Cell {
  call: string;
  database: "pglite" | "postgres";
  /** Server req/s ÷ bare Hapi req/s. */
  ratio: number;
  p99: number;
}

interface Target {
  what: string;
  call: string;
  database: Cell["database"];
  minRatio: number;
  maxP99?: number;
}

const targets: Target[] = [
  { what: "quote on Postgres", call: "quote", database: "postgres", minRatio: 0.25, maxP99: 25 },
  { what: "order on Postgres", call: "order", database: "postgres", minRatio: 0.12, maxP99: 25 },
  { what: "quote on PGlite", call: "quote", database: "pglite", minRatio: 0.1 },
];

const verdict = (ok: boolean) => (ok ? "met" : "**not met**");

/** One line per target: the figure measured, the target and whether it is met (or why it was not measured). */
export function targetLines(cells: Cell[], cliRatio: number, evalsFloodRatio = NaN, roundTripRatio = NaN): string[] {
  const lines = targets.map((t) => {
    const cell = cells.find((c) => c.call === t.call && c.database === t.database);
    if (!cell) return `- ${t.what}: not measured in this run (no ${t.database} database).`;
    const ratio = `÷ bare ${cell.ratio.toFixed(3)} (target ≥ ${t.minRatio}): ${verdict(cell.ratio >= t.minRatio)}`;
    const p99 = t.maxP99 === undefined ? "" : `; p99 ${cell.p99} ms (≤ ${t.maxP99}): ${verdict(cell.p99 <= t.maxP99)}`;
    return `- ${t.what}: ${ratio}${p99}.`;
  });
  const cli = Number.isFinite(cliRatio)
    ? `${cliRatio.toFixed(2)} (target ≤ 1.3): ${verdict(cliRatio <= 1.3)}`
    : "not measured";
  const flood = Number.isFinite(evalsFloodRatio)
    ? `${evalsFloodRatio.toFixed(2)} (target ≤ 4): ${verdict(evalsFloodRatio <= 4)}`
    : "not measured";
  const roundTrip = Number.isFinite(roundTripRatio)
    ? `${roundTripRatio.toFixed(2)} (target ≤ 2.5): ${verdict(roundTripRatio <= 2.5)}`
    : "not measured";
  return [
    ...lines,
    `- \`dispatch --help\` ÷ \`node -e 0\`: ${cli}.`,
    `- estimate p50 under an 8-way evals flood ÷ idle: ${flood}.`,
    `- \`dispatch quote\` round trip less server time ÷ \`node -e 0\`: ${roundTrip}.`,
  ];
}
