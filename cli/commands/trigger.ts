// `dispatch trigger <event-type>`: like `stripe trigger`, makes the sandbox emit one event of the catalogue
// (openapi.yaml `webhooks`) by creating a test order and driving it (sandbox advance, or cancel) until it has.
import type { Command } from "commander";
import { eventTypes, isEventType, type EventType } from "../generated/events.js";
import type { CliContext } from "../context.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { addExamples } from "../help.js";
import type { RequestTarget } from "../send.js";
import type { LiveEvent } from "./live-stream.js";
import type { RunAction } from "./operation.js";

interface TriggerOptions {
  data?: string;
}
interface Order {
  id: string;
  status: string;
  arrival_window?: Window | null;
  price_revision?: { id: string } | null;
}
interface Window {
  start: string;
  end: string;
}

/** A routine plumbing job in Texas: the sandbox's demo pool covers it, so the order is matched and can advance. */
const defaultOrder = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701", city: "Austin" },
  urgency: "routine",
  description: "Test order made by dispatch trigger.",
};
/** How long the event may take to reach the feed (the sequencer numbers events within about 100 ms). */
const feedWaitMs = 10_000;

const target = (method: RequestTarget["method"], path: string, body = false): RequestTarget => ({
  method,
  path,
  bodyContentType: body ? "application/json" : null,
});

/** One API call through the SDK (cli/send.ts): -H headers, the CLI's User-Agent, exit codes by status. */
async function call(
  ctx: CliContext,
  spec: RequestTarget,
  path: Record<string, string>,
  body?: Record<string, unknown>,
) {
  const { sendOperation } = await import("../send.js");
  return sendOperation(spec, { path, query: {}, header: {}, body }, ctx);
}

function orderBody(data: string | undefined): Record<string, unknown> {
  if (data === undefined) return defaultOrder;
  try {
    const body: unknown = JSON.parse(data);
    if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // reported below, like any other value that is not a JSON object
  }
  throw usageError(`--data must be a JSON object (a createOrder body), got ${JSON.stringify(data)}`);
}

const advance = (ctx: CliContext, order: Order, body: Record<string, unknown> = {}) =>
  call(ctx, target("post", "/api/dispatch/v1/sandbox/orders/{id}/advance", true), { id: order.id }, body);

/** Moves the order to another window its contractor can take: the open windows of a quote for the same job, tried
 * in time order (a window only other contractors have is 409 window_unavailable, and the next is tried). */
async function reschedule(ctx: CliContext, order: Order, body: Record<string, unknown>): Promise<unknown> {
  let current = order;
  if (current.status === "accepted_pending_fulfilment") current = ((await advance(ctx, order)) as Order) ?? order;
  const { trade, urgency } = body;
  const { state, city } = (body.location ?? {}) as { state?: string; city?: string }; // a quote's location fields
  const job = { trade, location: { state, city }, urgency };
  const quote = (await call(ctx, target("post", "/api/dispatch/v1/quote", true), {}, job)) as {
    arrival_windows?: Window[];
  };
  const booked = current.arrival_window?.start;
  const windows = (quote.arrival_windows ?? []).filter((w) => Date.parse(w.start) !== Date.parse(booked ?? ""));
  const path = target("post", "/api/dispatch/v1/orders/{id}/reschedule", true);
  for (const [i, window] of windows.entries())
    try {
      return await call(ctx, path, { id: order.id }, { arrival_window: window });
    } catch (error) {
      const taken = error instanceof CliError && error.api?.code === "window_unavailable";
      if (!taken || i === windows.length - 1) throw error;
    }
  throw new CliError(`order ${order.id}: no other open window to move it to`, ExitCode.unexpected);
}

/** Declines the pending price revision the service opened for the order held over its NTE (it stays held). */
async function declineRevision(ctx: CliContext, order: Order): Promise<unknown> {
  const held = (await call(ctx, target("get", "/api/dispatch/v1/orders/{id}"), { id: order.id })) as Order;
  const revision = held.price_revision?.id;
  if (!revision) throw new CliError(`order ${order.id}: no price revision to decline`, ExitCode.unexpected);
  const path = target("post", "/api/dispatch/v1/orders/{id}/price-revisions/{revision_id}/decline");
  return call(ctx, path, { id: order.id, revision_id: revision });
}

/** The price revision types start from an order held over its NTE (a 1-cent NTE: any price is over it), which
 * the service opens a pending revision for at creation. */
const heldOverNte = (body: Record<string, unknown>) => ({ ...body, nte_cents: 1 });
const orderBodies: Partial<Record<EventType, (body: Record<string, unknown>) => Record<string, unknown>>> = {
  "order.price_revision_requested": heldOverNte,
  "order.price_revision_resolved": heldOverNte,
};

type Drive = (ctx: CliContext, order: Order, body: Record<string, unknown>) => Promise<unknown>;
/** How the new order is moved until each type has been emitted (a Record: a new catalogue type must say how), or
 * why the sandbox cannot emit it on demand (said before any order is made). */
const drives: Record<EventType, Drive | { unavailable: string }> = {
  "order.created": () => Promise.resolve(), // creation is order.created already
  "order.status_changed": (ctx, order) => advance(ctx, order),
  "order.cancelled": (ctx, order) =>
    call(
      ctx,
      target("post", "/api/dispatch/v1/orders/{id}/cancel", true),
      { id: order.id },
      {
        reason: "other",
        note: "dispatch trigger",
      },
    ),
  // a matched order (201) was assigned at creation; an unassigned one (202) is assigned by its sandbox step
  "order.assigned": async (ctx, order) =>
    order.status === "accepted_pending_fulfilment" ? advance(ctx, order) : undefined,
  "order.completed": (ctx, order) => advance(ctx, order, { to: "completed" }),
  // assigned, the order has its first ETA; the sandbox's contractor setting off (en_route) re-estimates it
  "order.eta_updated": (ctx, order) => advance(ctx, order, { to: "en_route" }),
  "order.rescheduled": reschedule,
  "order.price_revision_requested": () => Promise.resolve(), // opened with the held order
  "order.price_revision_resolved": declineRevision,
  "order.escalated": {
    unavailable:
      "order.escalated comes when an unassigned order passes its urgency's fulfilment deadline (30 minutes for " +
      "an emergency, 2 hours urgent, 24 hours routine, 72 hours scheduled); the sandbox has no clock to hurry it " +
      "yet, so trigger cannot emit it now. Its shape is in the catalogue (openapi.yaml webhooks).",
  },
};

/** The order's first event of `type` once it is in the feed (listOrderEvents). */
async function emitted(ctx: CliContext, type: EventType, orderId: string): Promise<LiveEvent> {
  const spec = target("get", "/api/dispatch/v1/orders/{id}/events");
  for (const end = Date.now() + feedWaitMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const page = (await call(ctx, spec, { id: orderId })) as { items: LiveEvent[] };
    const event = page.items.find((e) => e.type === type);
    if (event) return event;
    if (Date.now() > end)
      throw new CliError(`order ${orderId}: no ${type} event in the feed after ${feedWaitMs} ms`, ExitCode.unexpected);
  }
}

async function trigger(ctx: CliContext, type: string, options: TriggerOptions): Promise<unknown> {
  if (!isEventType(type))
    throw usageError(`unknown event type ${JSON.stringify(type)}; valid: ${eventTypes.join(", ")}`);
  const key = ctx.settings["api-key"];
  // A trigger makes a real order: only the sandbox (a test key's environment) may get one.
  if (!key?.startsWith("dispatch_test_"))
    throw usageError(
      "trigger needs a test key (dispatch_test_…): it creates and drives a sandbox order, never a live one",
    );
  const drive = drives[type];
  if ("unavailable" in drive) throw usageError(drive.unavailable);
  const given = orderBody(options.data);
  const body = orderBodies[type]?.(given) ?? given;
  const created = (await call(ctx, target("post", "/api/dispatch/v1/order", true), {}, body)) as { order: Order };
  await drive(ctx, created.order, body);
  const event = await emitted(ctx, type, created.order.id);
  if (ctx.format === "table") return created.order.id;
  const order = await call(ctx, target("get", "/api/dispatch/v1/orders/{id}"), { id: created.order.id });
  return { order, event };
}

export function addTriggerCommand(root: Command, run: RunAction): void {
  const command = root
    .command("trigger <event-type>")
    .summary("Make the sandbox emit one event (a test order driven until it does)")
    .description(
      `Make the sandbox emit one event of the catalogue (${eventTypes.join(", ")}), as 'stripe trigger' does: ` +
        "creates a test order (a routine plumbing job in TX, or --data) and drives it with the sandbox advance " +
        "endpoint (to en_route for order.eta_updated, to completed for order.completed), a cancel, or a reschedule to " +
        "another open window of a quote for the same job (order.rescheduled), or an order held over a 1-cent NTE " +
        "(order.price_revision_requested) whose price revision is declined (order.price_revision_resolved) until the event is in the feed, so it reaches the order's callback_url and " +
        "'dispatch listen'. Prints the order id (with -o json, the order and the event). Needs a test key " +
        "(dispatch_test_…); a live key is refused.",
    )
    .option("--data <json>", "the createOrder body to use instead of the default (a JSON object)");
  addExamples(command, [
    "dispatch trigger order.created",
    "dispatch trigger order.status_changed -o json",
    "dispatch trigger order.completed",
    "dispatch trigger order.eta_updated -o json",
    "dispatch trigger order.rescheduled -o json",
    "dispatch trigger order.price_revision_resolved -o json",
    `dispatch trigger order.cancelled --data '{"trade":"hvac","location":{"state":"TX"},"urgency":"urgent","description":"No heat."}'`,
  ]);
  command.action(async (type: string) => run(command, (ctx) => trigger(ctx, type, command.opts<TriggerOptions>())));
}
