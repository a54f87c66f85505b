// `dispatch orders watch <id>`: follows one order live (listOrderEvents as SSE) until it ends; one line per change.
// Exit 0 when it completes, 11 (ExitCode.cancelled) when it is cancelled.
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { CliError, ExitCode } from "../errors.js";
import { isFinalStatus } from "../final-status.js";
import { addExamples } from "../help.js";
import { localTime, zoneOfState } from "../local-time.js";
import { writeOut } from "../output.js";
import type { LiveEvent } from "./live-stream.js";
import type { RunAction } from "./operation.js";

/** The ETA an event carries (order.assigned, order.eta_updated), as a table line shows it. */
const etaOf = ({ data }: LiveEvent, zone: string | undefined) =>
  data.eta ? `  ETA ${localTime(data.eta.estimated_arrival_at, zone)} (${data.eta.source})` : "";

/** A human line on a terminal (table), its times in the job's zone with the offset, else the event as one compact
 * JSON line (as the API sent it). */
export function eventLine(event: LiveEvent, format: CliContext["format"], zone?: string): string {
  if (format !== "table") return `${JSON.stringify(event)}\n`;
  const { data } = event;
  const from = typeof data.previous_status === "string" ? `${data.previous_status} -> ` : "";
  const at = localTime(event.timestamp, zone);
  return `${at}  ${data.order_id}  ${from}${data.status}${etaOf(event, zone)}  (${event.type}, ${event.id})\n`;
}

/** The zone of the order's state, for a table (the events do not carry the place). */
async function zoneOfOrder(ctx: CliContext, path: string): Promise<string | undefined> {
  if (ctx.format !== "table") return undefined;
  const { getPath } = await import("../send.js");
  const order = (await getPath(ctx, path)) as { location?: { state?: unknown } } | undefined;
  return zoneOfState(order?.location?.state);
}

async function watchOrder(ctx: CliContext, id: string): Promise<undefined> {
  const { follow } = await import("./live-stream.js");
  const path = `/api/dispatch/v1/orders/${encodeURIComponent(id)}`;
  const zone = await zoneOfOrder(ctx, path);
  let final = "";
  await follow(ctx, `${path}/events`, (event) => {
    writeOut(eventLine(event, ctx.format, zone));
    final = event.data.status;
    return isFinalStatus(final);
  });
  if (final === "cancelled") throw new CliError(`order ${id} was cancelled`, ExitCode.cancelled);
  return undefined;
}

/** Adds `orders watch <id>` beside the generated `orders` commands. */
export function addWatchCommand(root: Command, run: RunAction): void {
  const orders = root.commands.find((c) => c.name() === "orders");
  if (!orders) return;
  const watch = orders
    .command("watch")
    .summary("Follow an order live until it is completed (exit 0) or cancelled (exit 11)")
    .description(
      "Follow an order live (its event stream) and print one line per event, ETA updates (order.eta_updated) " +
        "with the new estimated arrival, until it is completed " +
        "(exit 0) or cancelled (exit 11). Resumes after a dropped connection without repeating or skipping a change. " +
        "A table shows times on the job's local clock with its offset (its state's zone); JSON keeps the API's.",
    )
    .argument("<id>", "order id (ord_…)");
  addExamples(watch, [
    'dispatch orders watch "$ORDER_ID" --output table',
    'dispatch orders watch "$ORDER_ID" -o ndjson',
  ]);
  watch.action(async (id: string) => run(watch, (ctx) => watchOrder(ctx, id)));
}
