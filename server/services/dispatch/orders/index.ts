// The order core's service over the one status machine (state.ts); its siblings are composed beside it in
// services/dispatch-domain.ts.
import type { Config } from "../../../config.js";
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import type { ContractorService } from "../contractors.js";
import type { SeatLedger } from "../bookings.js";
import { cancelOrder, type CancelInput } from "./cancel.js";
import { createOrder, type OrderContext, type OrderInput, type OrderPrincipal } from "./create.js";
import { orderNotFound } from "./errors.js";
import { listOrders, type OrderListFilter } from "./list.js";
import { recordEvent } from "./record-event.js";
import { rescheduleOrder, type RescheduleInput } from "./reschedule.js";
import type { OrderEventInput } from "./transition.js";
import { statusView } from "./view.js";
import { isFinal } from "./state.js";
import { createOrderWriter } from "./writer.js";
import { baseUrlOf } from "../../shared/base-url.js";
import { consistentRead } from "../../../db/consistent-read.js";

export type { CancelInput, CustomerCancelReason } from "./cancel.js";
export type { OrderAnswer, OrderContext, OrderInput, OrderPrincipal } from "./create.js";
export type { OrderListFilter } from "./list.js";
export type { RescheduleInput } from "./reschedule.js";
export type { OrderEventInput } from "./transition.js";
export type { OrderFailure } from "./order-failures.js";

/** getOrder: the tenant's own order with its history; other tenants' orders are not found. */
async function getOrder(db: Db, tenant: Tenant | null, id: string, base: string) {
  if (!tenant) throw orderNotFound(id);
  return consistentRead(db, async (trx) => {
    const row = await trx("orders")
      .where({ id, ...tenant })
      .first();
    if (!row) throw orderNotFound(id);
    return statusView(trx, row, base);
  });
}

/** What the core works with; `freed` is told when a change may have freed a contractor (the dispatcher's nudge). */
export interface OrderCore {
  db: Db;
  contractors: ContractorService;
  config: Config;
  seats: SeatLedger;
  eventsWritten: () => void;
  freed: () => void;
}

export function createOrderService(core: OrderCore) {
  const { db, contractors, config, seats, eventsWritten } = core;
  const creation = { db, contractors, config, writer: createOrderWriter(db, eventsWritten), seats };
  const baseOf = (origin: string) => baseUrlOf(config.publicBaseUrl, origin);
  /** Tells the sequencer; a cancelled or completed order frees its contractor, so the dispatcher looks again. */
  const thenWritten = <T>(change: Promise<T>, frees: boolean) =>
    change.finally(() => {
      eventsWritten();
      seats.changed(); // a cancel or completion freed seats
      if (frees) core.freed();
    });
  return {
    create: (principal: OrderPrincipal, payload: OrderInput, ctx: OrderContext) =>
      createOrder(creation, principal, { payload, ctx }),
    get: (tenant: Tenant | null, id: string, origin: string) => getOrder(db, tenant, id, baseOf(origin)),
    /** listOrders: only the key's tenant (its account in its environment). */
    list: (tenant: Tenant, filter: OrderListFilter, origin: string) => listOrders(db, tenant, filter, baseOf(origin)),
    /** A cancel frees its seats and a reschedule its old window's. */
    cancel: (tenant: Tenant, id: string, input: CancelInput, origin: string) =>
      thenWritten(cancelOrder(db, tenant, id, input, baseOf(origin)), true),
    reschedule: (tenant: Tenant, id: string, input: RescheduleInput, origin: string) =>
      thenWritten(rescheduleOrder({ db, contractors }, tenant, { id, input, base: baseOf(origin) }), true),
    /** An operator's status change; `base` is the admin request's own base URL. */
    recordEvent: (id: string, input: OrderEventInput, base: string) =>
      thenWritten(recordEvent(db, { contractors, seats, config }, { id, input, base }), isFinal(input.status)),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
