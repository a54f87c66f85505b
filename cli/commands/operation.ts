// One command per operation of the generated command table; the handler is loaded only when it runs.
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import type { HttpAnswer } from "../http.js";
import { optionsFor } from "../flags.js";
import { intervalOption } from "../interval.js";
import { addExamples, buildExamples } from "../help.js";
import type { OperationSpec } from "../operation-spec.js";
import { isFinalStatus } from "../final-status.js";
import { overrideFor } from "../overrides.js";
import { writeErr } from "../output.js";
import { ensureGroup } from "./groups.js";
import { currentIo } from "../io.js";

/** Resolves the context, runs the action and prints what it returns (cli/index.ts). */
export type RunAction = (
  command: Command,
  action: (ctx: CliContext) => Promise<unknown>,
  options?: { settings?: boolean },
) => Promise<void>;

/** Positional arguments: path parameters, then body fields the overrides make positional. */
export function positionalNames(spec: OperationSpec): string[] {
  return [
    ...spec.flags.filter((f) => f.in === "path").map((f) => f.flag),
    ...(overrideFor(spec.operationId).positional ?? []),
  ];
}

function describeOperation(command: Command, spec: OperationSpec): void {
  command.summary(spec.summary);
  // The contract wraps prose at ~110 columns; let commander re-wrap it, keeping paragraphs and list items.
  const prose = spec.description.replace(/([^\n])\n(?![\n*|-])/g, "$1 ");
  command.description(prose ? `${spec.summary}\n\n${prose}` : spec.summary);
  addExamples(command, () => buildExamples(spec));
}

/** Flag values keyed by flag name: positionals first, then options (an interval flag's too, expanded later). */
function collectValues(command: Command, spec: OperationSpec, positional: string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  positional.forEach((name, i) => {
    values[name] = command.processedArgs[i] as unknown;
  });
  const interval = overrideFor(spec.operationId).interval?.flag;
  for (const option of command.options) {
    const flag = spec.flags.find((f) => option.long === `--${f.flag}` || option.long === `--no-${f.flag}`)?.flag;
    const name = flag ?? (option.long === `--${interval}` ? interval : undefined);
    if (name && !positional.includes(name)) values[name] ??= command.getOptionValue(option.attributeName());
  }
  return values;
}

/** The positional arguments; a body field the contract leaves optional is an optional one (`sandbox clock advance
 * [by] --to next_step`). */
export function addArguments(command: Command, spec: OperationSpec, positional: string[]): void {
  for (const name of positional) {
    const flag = spec.flags.find((f) => f.flag === name);
    command.argument(flag?.in === "body" && !flag.required ? `[${name}]` : `<${name}>`, flag?.description);
  }
}

/** A list operation: `--paginate` follows its cursor. */
const isList = (spec: OperationSpec) =>
  spec.method === "get" && spec.flags.some((f) => f.in === "query" && f.target[0] === "cursor");

/** Whether the command has options (flags beyond its positionals, an interval, --paginate or --data). */
export const takesOptions = (spec: OperationSpec): boolean =>
  spec.flags.some((f) => !positionalNames(spec).includes(f.flag)) ||
  overrideFor(spec.operationId).interval !== undefined ||
  isList(spec) ||
  Boolean(spec.bodyContentType);

export function addOperationCommand(root: Command, spec: OperationSpec, run: RunAction): Command {
  const parent = ensureGroup(root, spec.command.slice(0, -1));
  const command = parent.command(spec.command.at(-1)!);
  describeOperation(command, spec);
  const positional = positionalNames(spec);
  addArguments(command, spec, positional);
  for (const flag of spec.flags.filter((f) => !positional.includes(f.flag)))
    optionsFor(flag).forEach((o) => command.addOption(o));
  const { interval } = overrideFor(spec.operationId);
  if (interval) command.addOption(intervalOption(spec, interval));
  if (isList(spec)) command.option("--paginate", "follow next_cursor and print every page's items as one list");
  if (spec.bodyContentType)
    command.option(
      "--data <json|@file|->",
      "request body as JSON: inline, @file.json or - for stdin (flags override its fields)",
    );
  command.action(async () =>
    run(command, async (ctx) => {
      const [{ buildRequest }, { validateRequest }, { sendOperation, sendAllPages }] = await Promise.all([
        import("../request-input.js"),
        import("../validate.js"),
        import("../send.js"),
      ]);
      const parts = buildRequest(
        spec,
        collectValues(command, spec, positional),
        command.opts().data as string | undefined,
      );
      validateRequest(spec, parts);
      const result = await (ctx.paginate
        ? sendAllPages(spec, parts, ctx)
        : sendOperation(spec, parts, ctx, {}, noteReplay));
      return presented(spec, ctx, result);
    }),
  );
  return command;
}

/** The answer as printed: a hint on stderr for a person at a terminal (a script reading stderr wants diagnostics
 * only), and a table of the columns the contract chose (every other format and a --query read the answer whole). */
async function presented(spec: OperationSpec, ctx: CliContext, result: unknown): Promise<unknown> {
  const next = currentIo().stderr.isTTY ? nextStep(spec.operationId, result) : undefined;
  if (next) writeErr(`next: ${next}\n`);
  if (spec.table && ctx.format === "table" && ctx.query === undefined)
    return (await import("../columns.js")).tableRows(result, spec.table);
  return result;
}

/** A replayed order created nothing new; say so, or a retried script looks like it ordered twice. */
function noteReplay(response: HttpAnswer): void {
  if (response.headers.get("idempotent-replayed") === "true")
    writeErr("dispatch: replayed: the server answered an earlier identical request (Idempotent-Replayed: true)\n");
}

interface OrderFields {
  id?: unknown;
  status?: unknown;
  nte_cents?: unknown;
  quoted_cost_cents?: unknown;
  price_revision?: { id?: unknown; status?: unknown } | null;
}

/** The approval a held order waits for: its pending price revision's id (a created order's answer has none: the
 * order's view shows it). */
function approvalOf(order: OrderFields, id: string): string {
  const revision = order.price_revision;
  const pending = revision?.status === "pending" && typeof revision.id === "string" ? revision.id : null;
  return pending
    ? `'dispatch orders revisions approve ${id} ${pending}'`
    : `'dispatch orders revisions approve ${id} <revision>' (its price_revision.id in 'dispatch orders get ${id}')`;
}

/** Held over its NTE: waiting for the customer to approve its price revision, so it never moves by itself (the server's rule). */
const isHeldOverNte = (order: OrderFields) =>
  order.status === "accepted_pending_fulfilment" &&
  typeof order.nte_cents === "number" &&
  typeof order.quoted_cost_cents === "number" &&
  order.quoted_cost_cents > order.nte_cents;

/** What a person may run next (stderr, so stdout stays data): never the command just run, never `watch` for an
 * order that will not move. */
export function nextStep(operationId: string, result: unknown): string | undefined {
  const created = operationId === "createOrder" ? (result as Record<string, unknown> | undefined) : undefined;
  const order = (created ? created.order : operationId === "getOrder" ? result : undefined) as OrderFields | undefined;
  const { id, status } = order ?? {};
  if (typeof id !== "string" || typeof status !== "string" || isFinalStatus(status)) return undefined;
  const held =
    isHeldOverNte(order!) || (created?.fulfilment as { reason?: unknown } | undefined)?.reason === "over_nte";
  if (held)
    return `held over its NTE: approve its price revision to dispatch it, ${approvalOf(order!, id)}, or cancel it ('dispatch orders cancel ${id} --reason other')`;
  if (operationId === "createOrder") return `dispatch orders get ${id} (or 'dispatch orders watch ${id}' to follow it)`;
  return `dispatch orders watch ${id} (follows it until it is completed or cancelled)`;
}
