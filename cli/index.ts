// `dispatch`: assembles the program from the generated command table and runs it; exit codes in cli/errors.ts.
import { Argument, Command, CommanderError, Option } from "commander";
import { addApiCommand } from "./commands/api.js";
import { addConfigCommands } from "./commands/config.js";
import { addAttestCommands } from "./commands/attest.js";
import { addListenCommand } from "./commands/listen.js";
import { addMcpCommands } from "./commands/mcp.js";
import { addOperationCommand, type RunAction } from "./commands/operation.js";
import { addWatchCommand } from "./commands/watch.js";
import { contextFrom } from "./context.js";
import { CliError, ExitCode } from "./errors.js";
import { cliVersion } from "./generated/version.js";
import { plainHelp } from "./help.js";
import { operations } from "./generated/operations.js";
import { overrideFor } from "./overrides.js";
import { outputFormats, printData, printError, printText, writeErr, writeOut } from "./output.js";

const exitCodesHelp = `
Exit codes: 0 ok, 1 unexpected, 2 usage/validation (nothing sent), 3 network error, 4 401, 5 402,
  6 404, 7 409, 8 422 and other 4xx, 9 429, 10 5xx, 11 order cancelled ('orders watch').
Settings: flag, then environment (DISPATCH_BASE_URL, DISPATCH_API_KEY, DISPATCH_TOKEN, DISPATCH_ADMIN_TOKEN,
  DISPATCH_OUTPUT, DISPATCH_PROFILE), then the profile in the config file (see 'dispatch config').
`;

function addGlobalOptions(program: Command): void {
  program
    .option("--base-url <url>", "API base URL (env DISPATCH_BASE_URL; default http://127.0.0.1:3000)")
    .option("--api-key <key>", "provisioned API key, sent as x-api-key (env DISPATCH_API_KEY)")
    .option("--token <token>", "OAuth access token, sent as a bearer (env DISPATCH_TOKEN)")
    .option("--admin-token <token>", "operator token for admin commands (env DISPATCH_ADMIN_TOKEN)")
    .option("--profile <name>", 'named profile from the config file (env DISPATCH_PROFILE; default "default")')
    .addOption(
      new Option(
        "-o, --output <format>",
        `output format: ${outputFormats.join(", ")} (default: json when piped, table on a terminal)`,
      ),
    )
    .option(
      "-H, --header <header>",
      "extra request header 'Name: value' (repeatable)",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .addOption(new Option("--retries <n>", "retries of 429/503 answers, honouring Retry-After (default 0)"))
    .option("-q, --query <jmespath>", "JMESPath expression applied to the result, e.g. 'items[].id'")
    .option("--dry-run", "print the request as a curl command and send nothing")
    .option("--show-secrets", "with --dry-run, print keys and tokens instead of ****");
}

export function buildProgram(version: string, run: RunAction): Command {
  const program = new Command("dispatch")
    .description("Quote, estimate and order field-service work from the dispatch API.")
    .version(version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({ writeOut, writeErr, outputError: () => undefined /* cli/output.ts prints errors */ })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false, ...plainHelp })
    .showSuggestionAfterError(true);
  addGlobalOptions(program);
  program.addHelpText("after", exitCodesHelp);
  for (const spec of operations) {
    if (overrideFor(spec.operationId).custom) addMcpCommands(program, spec, run);
    else addOperationCommand(program, spec, run);
  }
  addAttestCommands(program, run);
  addWatchCommand(program, run);
  addListenCommand(program, run);
  addApiCommand(program, run);
  addConfigCommands(program, run);
  const completion = program
    .command("completion")
    .summary("Print a shell completion script")
    .addArgument(new Argument("<shell>").choices(["bash", "zsh"]));
  completion.addHelpText(
    "after",
    '\nExamples:\n  $ source <(dispatch completion bash)\n  $ dispatch completion zsh > "${fpath[1]}/_dispatch"\n',
  );
  completion.action(async (shell: string) => {
    printText((await import("./completion.js")).completionScript(program, shell));
  });
  return program;
}

/** Commander's own exits: help and version are 0, every parse error is a usage error. */
function commanderExit(err: CommanderError): number {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return ExitCode.ok;
  if (err.code === "commander.help") return ExitCode.usage;
  return printError(
    new CliError(err.message.replace(/^error: /, ""), ExitCode.usage),
    jsonErrorsRequested(process.argv),
  );
}

function jsonErrorsRequested(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === "--output" || a === "-o");
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith("--output="))?.slice(9);
  const format = value ?? process.env.DISPATCH_OUTPUT;
  return format === "json" || format === "ndjson";
}

/** Runs `dispatch` with process-style argv and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let jsonErrors = jsonErrorsRequested(argv);
  const run: RunAction = async (command, action, { settings = true } = {}) => {
    const ctx = contextFrom(command, cliVersion, settings);
    jsonErrors = ctx.jsonErrors;
    const filter = ctx.query === undefined ? undefined : await import("./query.js");
    filter?.checkQuery(ctx.query!);
    const data = await action(ctx);
    // --query filters data, never the curl text of --dry-run.
    await printData(filter && typeof data !== "string" ? filter.applyQuery(data, ctx.query!) : data, ctx.format);
  };
  try {
    await buildProgram(cliVersion, run).parseAsync([...argv]);
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) return commanderExit(err);
    return printError(err, jsonErrors);
  }
}
