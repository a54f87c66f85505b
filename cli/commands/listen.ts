// `dispatch listen`: like `stripe listen`, follows the account's events (listEvents as SSE) with the API key alone;
// with a contractor key (refused listEvents: 403), the contractor's own feed (listContractorEvents) instead.
// With --forward-to it POSTs each to a local URL exactly as the webhook worker POSTs it to a callback_url (same
// body, headers, webhook-id, User-Agent and secret), one line per event; without it, it prints each event (the
// feed's body, one JSON per line, or a readable line in table format) for a CI job to read, and needs no secret.
import type { Command } from "commander";
import type { Webhook } from "standardwebhooks";
import {
  contractorEventTypes,
  eventTypes,
  isContractorEventType,
  isEventType,
  webhookUserAgent,
} from "../generated/events.js";
import type { CliContext } from "../context.js";
import { CliError, echoed, usageError } from "../errors.js";
import { addExamples } from "../help.js";
import { currentIo } from "../io.js";
import { writeErr, writeOut } from "../output.js";
import type { ContractorLiveEvent, LiveEvent, OnEvent } from "./live-stream.js";
import type { RunAction } from "./operation.js";

interface ListenOptions {
  forwardTo?: string;
  events?: string[];
  secret?: string;
  printSecret?: boolean;
}

/** --secret (or DISPATCH_WEBHOOK_SECRET), else the key's account's secret for its environment (getAccountWebhookSecret). */
async function signingSecret(ctx: CliContext, options: ListenOptions): Promise<string> {
  const given = options.secret ?? currentIo().env.DISPATCH_WEBHOOK_SECRET;
  if (given) return given;
  if (!ctx.settings["api-key"])
    throw usageError("listen needs an API key (--api-key or DISPATCH_API_KEY), or --secret whsec_…");
  const { callOperation } = await import("../send.js"); // the SDK: -H headers and the CLI's User-Agent apply
  const answer = (await callOperation(ctx, "getAccountWebhookSecret", {}).catch((error: unknown) => {
    if (!isForbidden(error)) throw error;
    throw usageError("this key has no webhook secret to sign forwards with (a contractor key has none): pass --secret");
  })) as { secret: string };
  return answer.secret;
}

/** One POST as the worker sends it (node:http, no keep-alive, the same header set); answers the status or why not. */
async function post(url: URL, headers: Record<string, string>, body: string): Promise<string> {
  // Loaded on first use: `dispatch --help` must not load the network modules (test/cli/startup.test.ts).
  const client = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolve) => {
    const request = client.request(
      url,
      { method: "POST", headers, agent: false, signal: AbortSignal.timeout(10_000) },
      (response) => {
        response.resume();
        response.on("end", () => {
          resolve(String(response.statusCode));
        });
      },
    );
    request.on("error", (error) => {
      resolve(`failed (${error.message})`);
    });
    request.end(body);
  });
}

/** POSTs one event as the webhook worker would; a receiver that cannot be reached is reported, not fatal. */
function forward(url: URL, signer: Webhook, event: AnyEvent): Promise<string> {
  const body = JSON.stringify(event); // the SSE `data:` parsed and written again: the same bytes as the webhook body
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": webhookUserAgent,
    "webhook-id": event.id, // the event's feed id, as the worker sends it (a receiver deduplicates on it)
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signer.sign(event.id, at, body),
  };
  return post(url, headers, body);
}

const allTypes = [...eventTypes, ...contractorEventTypes].join(", ");

/** --events values (repeated or comma-separated), each one of the order catalogue's or the contractor feed's types. */
function wantedTypes(values: string[] | undefined): string[] {
  const wanted = (values ?? []).flatMap((e) => e.split(",")).filter(Boolean);
  const unknown = wanted.filter((type) => !isEventType(type) && !isContractorEventType(type));
  if (unknown.length) throw usageError(`--events: unknown event type ${unknown.join(", ")} (valid: ${allTypes})`);
  return wanted;
}

type AnyEvent = LiveEvent | ContractorLiveEvent;
const customerFeed = "/api/dispatch/v1/events";
const contractorFeed = "/api/dispatch/v1/contractor/events";
const isForbidden = (error: unknown) => error instanceof CliError && error.api?.status === 403;

/** Follows the account's feed, or, when the key is refused it (a contractor key), the contractor's own feed. */
async function followFeed(ctx: CliContext, onEvent: OnEvent<AnyEvent>, ready: (feed: string) => void) {
  const { follow } = await import("./live-stream.js");
  try {
    await follow<AnyEvent>(ctx, customerFeed, onEvent, () => {
      ready("the account's");
    });
  } catch (error) {
    if (!isForbidden(error)) throw error;
    await follow<AnyEvent>(ctx, contractorFeed, onEvent, () => {
      ready("the contractor's");
    }).catch((other: unknown) => {
      throw isForbidden(other) ? error : other; // refused both: the account feed's refusal says which scope
    });
  }
}

/** A contractor event has no order status: its line shows the order alone. */
const statusOf = (event: AnyEvent) => ("status" in event.data ? event.data.status : "");

function forwardUrl(value: string): URL {
  const scheme = URL.canParse(value) ? new URL(value).protocol : null;
  // Events are POSTed as webhooks, so only an HTTP receiver can take them.
  if (scheme !== "http:" && scheme !== "https:")
    throw usageError(
      `--forward-to must be an http or https URL such as http://127.0.0.1:8080/webhooks (got ${echoed(value)})`,
    );
  return new URL(value);
}

/** Without --forward-to: each event printed as the feed has it (the webhook body), or a line for a person. */
async function printEvents(ctx: CliContext, wanted: string[]): Promise<undefined> {
  const ready = (feed: string) => {
    writeErr(`dispatch: ready, printing ${feed} events (Ctrl-C to stop)\n`);
  };
  const onEvent = (event: AnyEvent) => {
    if (wanted.length && !wanted.includes(event.type)) return false;
    writeOut(
      ctx.format === "table"
        ? `${event.timestamp}  ${event.id}  ${event.type}  ${event.data.order_id}  ${statusOf(event)}\n`
        : `${JSON.stringify(event)}\n`,
    );
    return false;
  };
  await followFeed(ctx, onEvent, ready);
  return undefined;
}

async function listen(ctx: CliContext, options: ListenOptions): Promise<undefined> {
  if (options.printSecret) {
    writeOut(`${await signingSecret(ctx, options)}\n`);
    return undefined;
  }
  const wanted = wantedTypes(options.events);
  if (options.forwardTo === undefined) return printEvents(ctx, wanted);
  const url = forwardUrl(options.forwardTo);
  const { Webhook } = await import("standardwebhooks");
  const signer = new Webhook(await signingSecret(ctx, options));
  const ready = (feed: string) => {
    writeErr(`dispatch: ready, forwarding ${feed} events to ${url.href} (Ctrl-C to stop)\n`);
  };
  const onEvent = async (event: AnyEvent) => {
    if (wanted.length && !wanted.includes(event.type)) return false;
    const status = await forward(url, signer, event);
    const line = { id: event.id, type: event.type, order_id: event.data.order_id, status: statusOf(event) };
    writeOut(
      ctx.format === "table"
        ? `${event.timestamp}  ${event.type}  ${line.order_id}  ${line.status}  -> ${status}\n`
        : `${JSON.stringify({ ...line, forwarded: status })}\n`,
    );
    return false;
  };
  await followFeed(ctx, onEvent, ready);
  return undefined;
}

export function addListenCommand(root: Command, run: RunAction): void {
  const command = root
    .command("listen")
    .summary("Print the account's live events, or forward them to a local URL exactly as webhooks send them")
    .description(
      "Follow the account's live events with the API key alone (with a contractor key, the contractor's own feed: " +
        "its offers and jobs, listContractorEvents). Without --forward-to, print each: with -o ndjson " +
        "(or json) one JSON per line, the event exactly as the feed and the webhook body carry it; in table format " +
        "a line of its time, id, type, order and status (for a CI job to wait on an event with no receiver).\n\n" +
        "With --forward-to, forward each to a local URL exactly as the server's webhooks send them to a " +
        "callback_url (same JSON body, same webhook-id, same User-Agent, Standard Webhooks headers signed with the " +
        "key's account and environment's webhook secret), as 'stripe listen' does: follows the event stream and " +
        "POSTs each event to --forward-to (http or https), printing the receiver's answer per event. Use it to test " +
        "a webhook receiver on this machine, where an order's callback_url may not point (it must be public). " +
        "--print-secret prints the secret forwarded events are signed with and exits.",
    )
    .option("--forward-to <url>", "local URL each event is POSTed to (without it, each event is printed)")
    .option("--events <types...>", `only these event types (${allTypes})`)
    .option("--secret <whsec>", "signing secret (env DISPATCH_WEBHOOK_SECRET; default: the key's account's secret)")
    .option("--print-secret", "print the signing secret forwarded events are signed with, then exit");
  addExamples(
    command,
    [
      "dispatch listen -o ndjson",
      "dispatch listen --events order.cancelled,order.completed -o table",
      "dispatch listen --forward-to http://127.0.0.1:8080/webhooks",
      'dispatch listen --forward-to http://127.0.0.1:8080/webhooks --events order.cancelled --secret "$DISPATCH_WEBHOOK_SECRET"',
      "dispatch listen --print-secret",
    ],
    "Runs until interrupted; reconnects after a drop and resumes after the last event seen.\n",
  );
  command.action(async () => run(command, (ctx) => listen(ctx, command.opts<ListenOptions>())));
}
