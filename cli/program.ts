// The `dispatch` command tree from the generated command table and the hand-written commands. Only what the command
// line runs is built in full: the operation it names (`jobs list`), or every command of the group whose help it asks
// for (`jobs --help`); every other operation is a stub (cli/commands/stub.ts) or, outside the group that runs, not
// even that (its group is only named). Why and what it saves: docs/decisions.md.
import { Argument, Command, Option } from "commander";
import { commandPath } from "./command-word.js";
import { exitCodesBrief } from "./errors.js";
import { addApiCommand } from "./commands/api.js";
import { addAttestCommands } from "./commands/attest.js";
import { addConfigCommands } from "./commands/config.js";
import { ensureGroup } from "./commands/groups.js";
import { addListenCommand } from "./commands/listen.js";
import { addTriggerCommand } from "./commands/trigger.js";
import { addMcpCommands } from "./commands/mcp.js";
import { addOperationCommand, type RunAction } from "./commands/operation.js";
import { addOperationStub, subcommandTerm } from "./commands/stub.js";
import { addWatchCommand } from "./commands/watch.js";
import { operations } from "./generated/operations.js";
import { guidesHelp } from "./guides.js";
import { addExamples, plainHelp } from "./help.js";
import { overrideFor } from "./overrides.js";
import { outputFormats, printText, terminalWidth, writeErr, writeOut } from "./output.js";

const exitCodesHelp = `
Exit codes: ${exitCodesBrief()}.
  A --query that matches nothing still exits 0 (with a note on stderr).
Settings: flag, then environment (DISPATCH_BASE_URL, DISPATCH_API_KEY, DISPATCH_TOKEN, DISPATCH_ADMIN_TOKEN,
  DISPATCH_OUTPUT, DISPATCH_PROFILE), then the profile in the config file (see 'dispatch config').
${guidesHelp()}`;

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
    .option(
      "-q, --query <jmespath>",
      "JMESPath expression applied to the result, e.g. 'items[].id' (matching nothing: a note on stderr, exit 0)",
    )
    .option("--dry-run", "print the request as a curl command and send nothing")
    .option("--show-secrets", "with --dry-run, print keys and tokens instead of ****");
}

function addCompletionCommand(program: Command): void {
  const completion = program
    .command("completion")
    .summary("Print a shell completion script")
    .addArgument(new Argument("<shell>", "the shell to print the script for").choices(["bash", "zsh"]));
  addExamples(completion, [
    "source <(dispatch completion bash)",
    "mkdir -p ~/.zfunc && dispatch completion zsh > ~/.zfunc/_dispatch   # with fpath+=(~/.zfunc) in ~/.zshrc",
  ]);
  completion.action(async (shell: string) => {
    printText((await import("./completion.js")).completionScript(program, shell));
  });
}

/** Words that lead to further commands: the operations' groups and the hand-written ones. */
const groupPaths = new Set([
  "attest",
  "config",
  ...operations.flatMap(({ command }) => command.slice(1).map((_, i) => command.slice(0, i + 1).join(" "))),
]);

/** Which commands are built: `inFull` ones in full, the others of a top-level group `onPath` as stubs. */
interface Scope {
  onPath: (word: string) => boolean;
  inFull: (words: readonly string[]) => boolean;
}

/** Operation commands: built, stubs, or for a top-level group off the path only the group's name (`orders`). */
function addOperationCommands(program: Command, run: RunAction, { onPath, inFull }: Scope): void {
  for (const spec of operations) {
    const [word] = spec.command;
    if (spec.command.length > 1 && !onPath(word)) ensureGroup(program, [word]);
    else if (overrideFor(spec.operationId).custom) addMcpCommands(program, spec, run);
    else if (inFull(spec.command)) addOperationCommand(program, spec, run);
    else addOperationStub(program, spec);
  }
}

/**
 * The program. With `argv`, only the command it runs is built in full (every one for `completion`); without, all of
 * them.
 */
export function buildProgram(version: string, run: RunAction, argv?: readonly string[]): Command {
  const program = new Command("dispatch")
    .description("Quote, estimate and order field-service work from the dispatch API.")
    .version(version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({
      writeOut,
      writeErr,
      outputError: () => undefined /* cli/output.ts prints errors */,
      // The running command's streams (cli/io.ts), not the process's: 80 columns when piped (commander's default);
      // the help has no colours.
      getOutHelpWidth: () => terminalWidth("stdout") ?? 80,
      getErrHelpWidth: () => terminalWidth("stderr") ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false, ...plainHelp, subcommandTerm })
    .showSuggestionAfterError(true);
  addGlobalOptions(program);
  program.addHelpText("after", exitCodesHelp);
  const path = argv && commandPath(program, argv, (words) => groupPaths.has(words.join(" ")));
  const everything = path === undefined || path[0] === "completion";
  const scope: Scope = {
    onPath: (word) => everything || path[0] === word,
    // the command the path names, or every command of the group it names (`jobs`); `dispatch --help`: none
    inFull: (words) =>
      everything || (path.length > 0 && path.length <= words.length && path.every((w, i) => words[i] === w)),
  };
  addOperationCommands(program, run, scope);
  // the hand-written groups are built whole when they are on the path
  if (scope.onPath("attest")) addAttestCommands(program, run);
  if (scope.onPath("orders")) addWatchCommand(program, run);
  addListenCommand(program, run);
  addTriggerCommand(program, run);
  addApiCommand(program, run);
  if (scope.onPath("config")) addConfigCommands(program, run);
  else ensureGroup(program, ["config"]);
  addCompletionCommand(program);
  return program;
}
