// `dispatch listen --forward-to <url>`: like `stripe listen`, follows the account's events (listEvents as SSE) and
// POSTs each to a local URL signed with the account's webhook secret (Standard Webhooks headers), one line per event.
import type { Command } from "commander";
import type { Webhook } from "standardwebhooks";
import type { CliContext } from "../context.js";
import { CliError, exitCodeForStatus, usageError } from "../errors.js";
import { writeErr, writeOut } from "../output.js";
import type { LiveEvent } from "./live-stream.js";
import type { RunAction } from "./operation.js";

interface ListenOptions {
  forwardTo: string;
  events?: string[];
  secret?: string;
}

/** --secret (or DISPATCH_WEBHOOK_SECRET), else the key's account's secret (getAccountWebhookSecret). */
async function signingSecret(ctx: CliContext, options: ListenOptions): Promise<string> {
  const given = options.secret ?? process.env.DISPATCH_WEBHOOK_SECRET;
  if (given) return given;
  const key = ctx.settings["api-key"];
  if (!key) throw usageError("listen needs an API key (--api-key or DISPATCH_API_KEY), or --secret whsec_…");
  const path = "/api/dispatch/v1/webhooks/secret";
  const response = await fetch(ctx.settings["base-url"] + path, { headers: { "x-api-key": key } });
  if (!response.ok) throw new CliError(`GET ${path}: HTTP ${response.status}`, exitCodeForStatus(response.status));
  return ((await response.json()) as { secret: string }).secret;
}

/** POSTs one event as the webhook worker would; a receiver that cannot be reached is reported, not fatal. */
async function forward(url: string, signer: Webhook, event: LiveEvent): Promise<string> {
  const body = JSON.stringify(event);
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signer.sign(event.id, at, body),
  };
  try {
    const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    return `failed (${(error as Error).message})`;
  }
}

async function listen(ctx: CliContext, options: ListenOptions): Promise<undefined> {
  if (!URL.canParse(options.forwardTo))
    throw usageError("--forward-to must be a URL such as http://127.0.0.1:8080/webhooks");
  const url = new URL(options.forwardTo).href;
  const [{ Webhook }, { follow }] = await Promise.all([import("standardwebhooks"), import("./live-stream.js")]);
  const signer = new Webhook(await signingSecret(ctx, options));
  const wanted = options.events?.flatMap((e) => e.split(",")).filter(Boolean);
  const ready = () => {
    writeErr(`dispatch: ready, forwarding events to ${url} (Ctrl-C to stop)\n`);
  };
  const onEvent = async (event: LiveEvent) => {
    if (wanted?.length && !wanted.includes(event.type)) return false;
    const status = await forward(url, signer, event);
    const line = { id: event.id, type: event.type, order_id: event.data.order_id, status: event.data.status };
    writeOut(
      ctx.format === "table"
        ? `${event.timestamp}  ${event.type}  ${String(line.order_id)}  ${String(line.status)}  -> ${status}\n`
        : `${JSON.stringify({ ...line, forwarded: status })}\n`,
    );
    return false;
  };
  await follow(ctx, "/api/dispatch/v1/events", onEvent, ready);
  return undefined;
}

export function addListenCommand(root: Command, run: RunAction): void {
  const command = root
    .command("listen")
    .summary("Forward the account's live events to a local URL, signed like webhooks")
    .requiredOption("--forward-to <url>", "local URL each event is POSTed to")
    .option("--events <types...>", "only these event types (order.created, order.status_changed, order.cancelled)")
    .option("--secret <whsec>", "signing secret (env DISPATCH_WEBHOOK_SECRET; default: the key's account's secret)");
  command.addHelpText(
    "after",
    "\nRuns until interrupted; reconnects after a drop and resumes after the last event seen.\n" +
      "Examples:\n  $ dispatch listen --forward-to http://127.0.0.1:8080/webhooks --secret whsec_…\n",
  );
  command.action(async () => run(command, (ctx) => listen(ctx, command.opts<ListenOptions>())));
}
