// The environment of a child process whose coverage c8 would throw away: the test's own, less NODE_V8_COVERAGE.
// `npm test` runs the suites under c8, which sets that variable so that every Node process below it records block
// coverage and writes it out on exit. c8 reports only the sources of server/, cli/ and sdk/ (package.json's c8
// include; dist/ and generated/ excluded), so what a third-party tool (tsc, prettier, Prism, MCP Inspector, client
// generators, npm) or the built server records is dropped from the report, yet recording it is not free: tsc over
// server/ took 40 s of CPU under coverage against 19 s without, and each such process left megabytes of JSON that c8
// reads back after the run. Children that run the TypeScript sources (through tsx) keep the variable: their
// coverage is what the report is made of.
// Leaving the variable out of a child's environment is not enough: Node's child_process copies NODE_V8_COVERAGE
// from the parent unless the given environment has the key itself, so it is there, undefined (which spawn drops).

/** `env` (the test's by default) with NODE_V8_COVERAGE unset for the child. */
export function withoutCoverage(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, NODE_V8_COVERAGE: undefined };
}
