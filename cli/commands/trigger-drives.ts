// How `dispatch trigger` makes each event type of the catalogue come from a test order: the new order's body and
// the public operations that move it. A Record, so a new catalogue type does not compile until it says how; a step
// the order's status forbids is left to the operation's own 409, so the rules stay in the server's transition table.
// order.escalated advances the account's test clock and leaves it frozen (docs/decisions.md, "`dispatch trigger`
// drives orders through public operations").
import type { components } from "../../sdk/generated/openapi.js";
import type { EventType } from "../generated/events.js";
import type { CliContext } from "../context.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { isFinalStatus } from "../final-status.js";
import { writeErr } from "../output.js";
import { callOperation } from "../send.js";

export type Order = components["schemas"]["OrderStatus"];
type Window = components["schemas"]["ArrivalWindow"];
type Clock = components["schemas"]["SandboxClock"];
type Body = Record<string, unknown>;

/** A drive: the order as read now, and whether trigger just created it. */
type Drive = (ctx: CliContext, order: Order, fresh: boolean) => Promise<unknown>;
interface Recipe {
  /** What a new order's body needs for the type (over the default job or --data; --override still wins). */
  body?: (body: Body) => Body;
  drive: Drive;
}

/** Clock stops walked for one escalation at most: the server's own bound on one advance's stops, per call. */
const maxClockAdvances = 1000;

export const readOrder = async (ctx: CliContext, id: string) => (await callOperation(ctx, "getOrder", { id })) as Order;

/** The 409 of a type that cannot come from the order as it is (exit 7, as the server's conflicts). */
const cannot = (order: Order, why: string) =>
  new CliError(`order ${order.id} (${order.status}): ${why}`, ExitCode.conflict);

const advance = (ctx: CliContext, order: Order, body: Body = {}) =>
  callOperation(ctx, "advanceSandboxOrder", { id: order.id }, body);

/** Moves the order to another window its contractor can take: the open windows of a quote for the same job, tried
 * in time order (a window only other contractors have is 409 window_unavailable, and the next is tried). */
async function reschedule(ctx: CliContext, order: Order): Promise<unknown> {
  let current = order;
  if (current.status === "accepted_pending_fulfilment") {
    await advance(ctx, order); // assigned first: an order without a contractor has no seat to move
    current = await readOrder(ctx, order.id);
  }
  const { state, city } = order.location;
  const job = { trade: order.trade, location: { state, city }, urgency: order.urgency };
  const quote = (await callOperation(ctx, "createQuote", {}, job)) as {
    arrival_windows?: Window[];
  };
  const booked = Date.parse(current.arrival_window?.start ?? "");
  const windows = (quote.arrival_windows ?? []).filter((w) => Date.parse(w.start) !== booked);
  for (const [i, window] of windows.entries())
    try {
      return await callOperation(ctx, "rescheduleOrder", { id: order.id }, { arrival_window: window });
    } catch (error) {
      const taken = error instanceof CliError && error.api?.code === "window_unavailable";
      if (!taken || i === windows.length - 1) throw error;
    }
  throw cannot(current, "no other open window of its contractor to move it to");
}

/** Declines the order's pending price revision (an order held over its NTE stays held). */
function declineRevision(ctx: CliContext, order: Order): Promise<unknown> {
  const revision = order.price_revision;
  if (revision?.status !== "pending")
    throw cannot(order, "order.price_revision_resolved needs a pending price revision to decline");
  return callOperation(ctx, "declinePriceRevision", { id: order.id, revision_id: revision.id });
}

/** Walks the account's test clock to its next scheduled instant until the unassigned order has escalated. */
async function escalate(ctx: CliContext, order: Order): Promise<unknown> {
  if (order.status !== "accepted_pending_fulfilment" || order.escalation)
    throw cannot(
      order,
      "order.escalated comes from an unassigned order (accepted_pending_fulfilment) not escalated yet; an order " +
        "nobody serves is one in a state the pool does not cover (--override location.state=AK)",
    );
  const before = (await callOperation(ctx, "getSandboxClock", {})) as Clock;
  for (let stops = 0; ; stops++) {
    const now = await readOrder(ctx, order.id);
    if (now.escalation) break;
    if (now.status !== "accepted_pending_fulfilment")
      throw cannot(now, "it was assigned before its fulfilment deadline, so it will not escalate");
    if (stops === maxClockAdvances)
      throw new CliError(`order ${order.id}: not escalated after ${String(stops)} clock steps`, ExitCode.unexpected);
    await callOperation(ctx, "advanceSandboxClock", {}, { to: "next_step" });
  }
  if (!before.frozen)
    writeErr(
      "dispatch: the account's test clock is frozen now (advanced to the order's fulfilment deadline): its test " +
        "orders move only when it is advanced ('dispatch sandbox clock advance'); 'dispatch sandbox reset' puts it " +
        "back on the wall clock\n",
    );
  return undefined;
}

/** The price revision types start from an order held over its NTE (a 1-cent NTE: any price is over it), which
 * the service opens a pending revision for at creation. */
const heldOverNte = (body: Body) => ({ ...body, nte_cents: 1 });

export const recipes: Record<EventType, Recipe> = {
  "order.created": {
    drive: (_ctx, order, fresh) => {
      if (!fresh) throw usageError("order.created comes only with a new order: trigger it without --order");
      return Promise.resolve(); // creating it was the event
    },
  },
  "order.status_changed": { drive: (ctx, order) => advance(ctx, order) },
  "order.cancelled": {
    drive: (ctx, order) => callOperation(ctx, "cancelOrder", { id: order.id }, { reason: "other" }),
  },
  "order.assigned": {
    // a matched new order was assigned at creation; an unassigned one is assigned by its sandbox step (or 409)
    drive: async (ctx, order, fresh) => {
      if (order.status === "accepted_pending_fulfilment") return advance(ctx, order);
      if (!fresh) throw cannot(order, "it has its contractor already; order.assigned comes with the first one");
      return undefined;
    },
  },
  "order.completed": { drive: (ctx, order) => advance(ctx, order, { to: "completed" }) },
  // assigned, the order has its first ETA; the sandbox's contractor setting off (en_route) re-estimates it
  "order.eta_updated": { drive: (ctx, order) => advance(ctx, order, { to: "en_route" }) },
  "order.rescheduled": { drive: reschedule },
  "order.price_revision_requested": {
    body: heldOverNte,
    drive: (_ctx, order, fresh) => {
      if (!fresh)
        throw cannot(
          order,
          "order.price_revision_requested on an existing order comes from its contractor (requestPriceRevision), " +
            "not from the customer's key; trigger it without --order",
        );
      if (order.price_revision?.status !== "pending")
        throw cannot(order, "it was not held over its NTE, so no price revision was opened (keep nte_cents low)");
      return Promise.resolve(); // opened with the held order
    },
  },
  "order.price_revision_resolved": { body: heldOverNte, drive: declineRevision },
  "order.escalated": {
    // an emergency (the shortest deadline, 30 minutes) in Alaska, which the demo pool deliberately leaves uncovered
    body: (body) => ({
      ...body,
      urgency: "emergency",
      location: { state: "AK", zip: "99501", city: "Anchorage" },
    }),
    drive: escalate,
  },
};

/** Nothing comes from an ended order any more: said before anything is sent for it. */
export function checkNotEnded(order: Order): void {
  if (isFinalStatus(order.status)) throw cannot(order, "an ended order emits no more events");
}
