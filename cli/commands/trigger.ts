// `dispatch trigger <event-type>`: like `stripe trigger`, makes the sandbox emit one event of the catalogue
// (openapi.yaml `webhooks`) and prints its id: on a new test order (the default job, --data, --override
// field=value) or on an existing one (--order), driven through public operations (trigger-drives.ts) until the
// event is in the order's feed. An event already in the feed before the drive does not count, so --order on an
// order that had the type once waits for a new one. Only a test key may trigger: the orders are real sandbox orders.
import type { Command } from "commander";
import { eventTypes, isEventType, type EventType } from "../generated/events.js";
import type { CliContext } from "../context.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { addExamples } from "../help.js";
import type { LiveEvent } from "./live-stream.js";
import type { RunAction } from "./operation.js";

interface TriggerOptions {
  data?: string;
  order?: string;
  override?: string[];
}

/** How long the event may take to reach the feed (the sequencer numbers events within about 100 ms). */
const feedWaitMs = 10_000;

async function feedOf(ctx: CliContext, orderId: string): Promise<LiveEvent[]> {
  const { callOperation } = await import("../send.js");
  return ((await callOperation(ctx, "listOrderEvents", { id: orderId })) as { items: LiveEvent[] }).items;
}

/** What the account's test clock has to do with a missing event: nothing on the wall clock; frozen, whatever
 * waits on time waits for an advance. */
async function clockNote(ctx: CliContext): Promise<string> {
  const { callOperation } = await import("../send.js");
  const clock = (await callOperation(ctx, "getSandboxClock", {})) as { now: string; frozen: boolean };
  if (!clock.frozen) return "";
  return (
    `; the account's test clock is frozen at ${clock.now}: what waits on time happens only when it is advanced ` +
    "('dispatch sandbox clock advance'), and 'dispatch sandbox reset' puts it back on the wall clock"
  );
}

/** The order's first event of `type` not in `seen`, once it is in the feed (listOrderEvents). */
async function emitted(ctx: CliContext, type: EventType, orderId: string, seen: Set<string>): Promise<LiveEvent> {
  for (const end = Date.now() + feedWaitMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const event = (await feedOf(ctx, orderId)).find((e) => e.type === type && !seen.has(e.id));
    if (event) return event;
    if (Date.now() > end)
      throw new CliError(
        `order ${orderId}: no ${type} event in the feed after ${feedWaitMs} ms${await clockNote(ctx)}`,
        ExitCode.unexpected,
      );
  }
}

/** Refuses what cannot be triggered before anything is sent (exit 2). */
function checkUsage(ctx: CliContext, type: string, options: TriggerOptions): asserts type is EventType {
  if (!isEventType(type))
    throw usageError(`unknown event type ${JSON.stringify(type)}; valid: ${eventTypes.join(", ")}`);
  // A trigger makes and moves real orders: only the sandbox (a test key's environment) may get them.
  if (!ctx.settings["api-key"]?.startsWith("dispatch_test_"))
    throw usageError(
      "trigger needs a test key (dispatch_test_…): it creates and drives a sandbox order, never a live one",
    );
  if (options.order !== undefined && (options.data !== undefined || options.override?.length))
    throw usageError("--order drives an existing order: --data and --override set fields of a new one only");
}

async function trigger(ctx: CliContext, type: string, options: TriggerOptions): Promise<unknown> {
  checkUsage(ctx, type, options);
  const [{ recipes, readOrder, checkNotEnded }, { orderBody }, { callOperation }] = await Promise.all([
    import("./trigger-drives.js"),
    import("./trigger-body.js"),
    import("../send.js"),
  ]);
  const recipe = recipes[type];
  let order;
  const seen = new Set<string>();
  if (options.order === undefined) {
    const body = await orderBody(options.data, recipe.body, options.override ?? []);
    const created = (await callOperation(ctx, "createOrder", {}, body)) as { order: { id: string } };
    order = await readOrder(ctx, created.order.id);
  } else {
    if (type === "order.created")
      throw usageError("order.created comes only with a new order: trigger it without --order");
    order = await readOrder(ctx, options.order);
    checkNotEnded(order);
    for (const event of await feedOf(ctx, order.id)) seen.add(event.id);
  }
  await recipe.drive(ctx, order, options.order === undefined);
  const event = await emitted(ctx, type, order.id, seen);
  if (ctx.format === "table") return event.id;
  return { order: await readOrder(ctx, order.id), event };
}

/** The --help text: the drives per type, --order, and what order.escalated does to the account's clock. */
const description =
  `Make the sandbox emit one event of the catalogue (${eventTypes.join(", ")}), as 'stripe trigger' does, ` +
  "and print the event's id once it is in the order's feed (with -o json, the order and the event), so it " +
  "has reached the order's callback_url and 'dispatch listen'. By default it creates a test order (a routine " +
  "plumbing job in TX, or --data, with each --override field=value set on top) and drives it: the sandbox " +
  "advance endpoint (to en_route for order.eta_updated, to completed for order.completed), a cancel, a " +
  "reschedule to another open window of a quote for the same job (order.rescheduled), an order held over a " +
  "1-cent NTE (order.price_revision_requested) whose price revision is declined " +
  "(order.price_revision_resolved). --order <id> drives an existing test order from its status instead; a " +
  "type that cannot come from it exits 7 (order.created never can: exit 2).\n\n" +
  "order.escalated: an emergency in AK (the demo pool covers no AK), whose 30-minute fulfilment deadline is " +
  "reached by advancing the account's test clock to its next scheduled step until the order escalates. The " +
  "clock then stays frozen: the account's test orders move only when it is advanced ('dispatch sandbox clock " +
  "advance'), and 'dispatch sandbox reset' (which also removes the account's test orders) puts it back on the " +
  "wall clock. The account's other test orders live through the same minutes.\n\n" +
  "Needs a test key (dispatch_test_…); a live key is refused.";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function addTriggerCommand(root: Command, run: RunAction): void {
  const command = root
    .command("trigger")
    .argument("<event-type>", "the type of event to emit, one of the catalogue listed above")
    .summary("Make the sandbox emit one event and print its id (a test order driven until it does)")
    .description(description)
    .option("--data <json|@file|->", "the createOrder body to use instead of the default (a JSON object)")
    .option(
      "--override <field=value>",
      "set a field of the new order, by its path in the createOrder body (location.state=CA, nte_cents=5000); " +
        "repeatable; values are read as the contract types the field",
      collect,
    )
    .option("--order <id>", "drive this existing test order instead of creating one");
  addExamples(command, [
    "dispatch trigger order.created",
    "dispatch trigger order.status_changed -o json",
    "dispatch trigger order.completed --override location.state=CA --override location.zip=95814 --override location.city=Sacramento",
    "dispatch trigger order.eta_updated -o json",
    "dispatch trigger order.rescheduled -o json",
    "dispatch trigger order.price_revision_resolved -o json",
    "dispatch trigger order.escalated",
    'dispatch trigger order.cancelled --order "$ORDER_ID"',
    `dispatch trigger order.cancelled --data '{"trade":"hvac","location":{"state":"TX"},"urgency":"urgent","description":"No heat."}'`,
  ]);
  command.action(async (type: string) => run(command, (ctx) => trigger(ctx, type, command.opts<TriggerOptions>())));
}
