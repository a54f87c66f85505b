// `dispatch listen --forward-to <url>`: like `stripe listen`, follows the account's events (listEvents as SSE) and
// POSTs each to a local URL signed with the account's webhook secret (Standard Webhooks headers), one line per event.
import type { Command } from "commander";
import type { Webhook } from "standardwebhooks";
import type { CliContext } from "../context.js";
import { CliError, exitCodeForStatus, fetchFailure, networkError, usageError } from "../errors.js";
import { addExamples } from "../help.js";
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
  const response = await fetch(ctx.settings["base-url"] + path, { headers: { "x-api-key": key } }).catch(
    (error: unknown) => {
      throw networkError(error, ctx.settings["base-url"]);
    },
  );
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
    return `failed (${fetchFailure(error)})`;
  }
}

async function listen(ctx: CliContext, options: ListenOptions): Promise<undefined> {
  const scheme = URL.canParse(options.forwardTo) ? new URL(options.forwardTo).protocol : null;
  // Events are POSTed as webhooks, so only an HTTP receiver can take them.
  if (scheme !== "http:" && scheme !== "https:")
    throw usageError(
      `--forward-to must be an http or https URL such as http://127.0.0.1:8080/webhooks (got ${JSON.stringify(options.forwardTo)})`,
    );
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
    .description(
      "Forward the account's live events to a local URL, signed like webhooks (Standard Webhooks headers), as " +
        "'stripe listen' does: follows the event stream and POSTs each event to --forward-to (http or https), " +
        "printing the receiver's answer per event. Use it to test a webhook receiver on this machine, where an " +
        "order's callback_url may not point (it must be public).",
    )
    .requiredOption("--forward-to <url>", "local URL each event is POSTed to")
    .option("--events <types...>", "only these event types (order.created, order.status_changed, order.cancelled)")
    .option("--secret <whsec>", "signing secret (env DISPATCH_WEBHOOK_SECRET; default: the key's account's secret)");
  addExamples(
    command,
    [
      "dispatch listen --forward-to http://127.0.0.1:8080/webhooks",
      'dispatch listen --forward-to http://127.0.0.1:8080/webhooks --events order.cancelled --secret "$DISPATCH_WEBHOOK_SECRET"',
    ],
    "Runs until interrupted; reconnects after a drop and resumes after the last event seen.\n",
  );
  command.action(async () => run(command, (ctx) => listen(ctx, command.opts<ListenOptions>())));
}
