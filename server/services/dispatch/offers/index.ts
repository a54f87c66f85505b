// The contractor side of orders: offers (opened with every assignment), the contractor's list and answers, and the
// expiry sweep; an answer about a test order runs on its account's clock (shared/test-clock.ts).
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { newestFirst, pageOf } from "../../shared/keyset.js";
import type { ResponseBody, ValidQuery } from "../../../types/contract.js";
import { acceptOffer, declineOffer, type Answering, type DeclineInput } from "./answer.js";
import { offerViews } from "../orders/offer-view.js";
import { baseUrlOf } from "../../shared/base-url.js";
import { onTenantClock } from "../../shared/test-clock.js";

export type OfferListFilter = ValidQuery<"listContractorOffers">;

/** listContractorOffers: the caller's offers in its environment, newest first. */
async function listOffers(
  deps: Answering,
  caller: ContractorCaller,
  filter: OfferListFilter,
): Promise<ResponseBody<"listContractorOffers", 200>> {
  const own = deps.db("order_offers").where({ contractor_id: caller.contractorId, environment: caller.environment });
  const query = newestFirst(own, filter, /^ofr_/);
  if (filter.status) void query.where({ status: filter.status });
  const { page, next_cursor } = pageOf<OrderOfferRow>(await query, filter.limit);
  return { items: await offerViews(deps.db, page), next_cursor };
}

/** Runs an answer on the clock of the offer's tenant (the caller's own offers only; others are the answer's 404). */
async function onOfferClock<T>(deps: Answering, caller: ContractorCaller, id: string, work: () => Promise<T>) {
  const offer = await deps
    .db("order_offers")
    .where({ id, contractor_id: caller.contractorId, environment: caller.environment })
    .first("account", "environment");
  return onTenantClock(deps.db, offer, work);
}

export function createOfferService(deps: Answering) {
  const baseOf = (origin: string) => baseUrlOf(deps.config.publicBaseUrl, origin);
  return {
    list: (caller: ContractorCaller, filter: OfferListFilter) => listOffers(deps, caller, filter),
    accept: (caller: ContractorCaller, id: string, origin: string) =>
      onOfferClock(deps, caller, id, () => acceptOffer(deps, caller, id, baseOf(origin))),
    decline: (caller: ContractorCaller, id: string, input: DeclineInput, origin: string) =>
      onOfferClock(deps, caller, id, () => declineOffer(deps, caller, { id, input, base: baseOf(origin) })),
  };
}

export type OfferService = ReturnType<typeof createOfferService>;
