// The environment of a child process that runs a third-party tool (tsc, Prism, MCP Inspector, the MCP conformance
// suite, client generators, npm installs, mocha over test fixtures): the test's own, with NODE_V8_COVERAGE unset.
// `npm test` runs the suites under c8, which sets that variable so that every Node process below it records block
// coverage and writes it out on exit; c8 then reports only the sources of server/, cli/ and sdk/ (package.json's c8
// include), so a tool's coverage is thrown away, yet recording it is not free: under NODE_V8_COVERAGE, tsc over
// server/ (contract-types) took 40 s of CPU against 19 s without, and prettier --check . 21 s against 11 s.
// Children that run the project's code keep the variable: the TypeScript sources through tsx (their coverage is the
// report), the CLI bin (in cli/**), and the built server, which measured the same CPU either way and whose memory
// the fault tests measure.
// Leaving the variable out of a child's environment is not enough: Node's child_process copies NODE_V8_COVERAGE
// from the parent unless the given environment has the key itself, so it is there, undefined (which spawn drops).

/** `env` (the test's by default) with NODE_V8_COVERAGE unset for the child. */
export function withoutCoverage(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, NODE_V8_COVERAGE: undefined };
}
