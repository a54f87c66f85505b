// `dispatch`: builds the program (cli/program.ts) for the command line and runs it; exit codes in cli/errors.ts.
// Everything a command needs beyond parsing (settings, the SDK, output formats) is loaded when it runs.
import { CommanderError } from "commander";
import type { RunAction } from "./commands/operation.js";
import { CliError, ExitCode } from "./errors.js";
import { cliVersion } from "./generated/version.js";
import { currentIo, withIo, type CliIo } from "./io.js";
import { printData, printError, writeErr } from "./output.js";
import { buildProgram } from "./program.js";

/** Commander's own exits: help and version are 0, every parse error is a usage error. */
function commanderExit(err: CommanderError, argv: readonly string[]): number {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return ExitCode.ok;
  if (err.code === "commander.help") return ExitCode.usage;
  return printError(new CliError(err.message.replace(/^error: /, ""), ExitCode.usage), jsonErrorsRequested(argv));
}

function jsonErrorsRequested(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === "--output" || a === "-o");
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith("--output="))?.slice(9);
  const format = value ?? currentIo().env.DISPATCH_OUTPUT;
  return format === "json" || format === "ndjson";
}

/** Runs `dispatch` with process-style argv and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let jsonErrors = jsonErrorsRequested(argv);
  const run: RunAction = async (command, action, { settings = true } = {}) => {
    const ctx = (await import("./context.js")).contextFrom(command, cliVersion, settings);
    jsonErrors = ctx.jsonErrors;
    const filter = ctx.query === undefined ? undefined : await import("./query.js");
    filter?.checkQuery(ctx.query!);
    const data = await action(ctx);
    // --query filters data, never the curl text of --dry-run.
    if (!filter || typeof data === "string") return printData(data, ctx.format);
    const selected = filter.applyQuery(data, ctx.query!);
    // JMESPath answers null for a path that is not there; stdout stays empty, the exit code 0 (documented).
    if (selected === null) writeErr(`dispatch: note: --query ${JSON.stringify(ctx.query)} matched nothing\n`);
    await printData(selected, ctx.format);
  };
  try {
    await buildProgram(cliVersion, run, argv).parseAsync([...argv]);
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExit(err, argv);
    return printError(err, jsonErrors);
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `dispatch args…` in this process with the given environment and stdin, collecting what it prints; the
 * process's own streams and exit code are left alone. Streams are not terminals unless `tty` says so.
 */
export async function runCli(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string; tty?: { columns: number } },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const terminal = { isTTY: options.tty !== undefined, columns: options.tty?.columns };
  const io: CliIo = {
    stdout: { ...terminal, write: (text: string) => (stdout += text) },
    stderr: { ...terminal, write: (text: string) => (stderr += text) },
    env: options.env,
    readStdin: () => options.stdin ?? "",
  };
  const code = await withIo(io, () => main(["node", "dispatch", ...args]));
  return { code, stdout, stderr };
}
