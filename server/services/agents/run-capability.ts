// Runs a capability for a caller, validated against the contract: shared by the MCP tools and the A2A skills
// (REST has its own routes).
import { capabilities } from "./capabilities.js";
import { DomainError, EntitlementError } from "../errors.js";
import type { Services } from "../index.js";
import { estimate, tradeIndex } from "../dispatch/pricing.js";
import {
  createInputValidator,
  deriveCapabilitySchemas,
  type CapabilityCall,
  type CapabilityId,
} from "./tool-schemas.js";
import { keyCallerOf, tenantOf, type Caller } from "../access/principal.js";
import { accessOfOperation, assertMayCall } from "../access/operation-access.js";
import { notEntitledToOrder } from "../dispatch/entitlement.js";

export type { Caller } from "../access/principal.js";

export interface InvokeContext {
  caller: Caller | null;
  /** Base of absolute URLs (status URLs) when PUBLIC_BASE_URL is unset. */
  origin: string;
  receivedAt: number;
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
export const isEntitlementError = (e: unknown): e is EntitlementError => e instanceof EntitlementError;

export type Capability = (typeof capabilities)[number];

/** What one request costs in the rate limiter's policies: one point per message, plus the probe's own policy
 * for each probe call, so a capability is limited alike on REST, MCP and A2A. */
export interface CapabilityCost {
  policy: "default" | "probe";
  points: number;
}
const policyOf: Partial<Record<string, CapabilityCost["policy"]>> = { "agentic.readiness_probe": "probe" };

export function costsOf(messages: number, called: readonly string[]): CapabilityCost[] {
  const costs: CapabilityCost[] = [{ policy: "default", points: Math.max(1, messages) }];
  const probes = called.filter((id) => policyOf[id] === "probe").length;
  if (probes) costs.push({ policy: "probe", points: probes });
  return costs;
}
type CapabilityServices = Pick<Services, "quotes" | "evals" | "orders" | "probe" | "config">;

/** `ord_…`, or the MCP order handle `dispatch-ord_…` that dispatch.order answers with. */
const orderIdOf = (input: { id: string }) => input.id.replace(/^dispatch-/, "");
type OrderToolCall = Extract<CapabilityCall, { id: "dispatch.order_status" | "dispatch.cancel_order" }>;

/** dispatch.order_status and dispatch.cancel_order: the account's own orders, as GET and cancel over REST. */
async function runOrderTool(
  services: CapabilityServices,
  call: OrderToolCall,
  origin: string,
  caller: Caller,
): Promise<Record<string, unknown>> {
  const tenant = tenantOf(caller)!; // the access check admits keys only to these tools
  const id = orderIdOf(call.input);
  if (call.id === "dispatch.order_status") return { ...(await services.orders.get(tenant, id, origin)) };
  const { reason, note } = call.input;
  return { ...(await services.orders.cancel(tenant, id, { reason, ...(note ? { note } : {}) }, origin)) };
}

export function capabilityById(id: string): Capability | undefined {
  return capabilities.find((c) => c.id === id);
}

/** One capability on validated input. */
async function run(
  services: CapabilityServices,
  call: CapabilityCall,
  ctx: InvokeContext,
  caller: Caller | null,
): Promise<Record<string, unknown>> {
  switch (call.id) {
    case "dispatch.index":
      return tradeIndex();
    case "dispatch.evals":
      return services.evals.document(call.input.period);
    case "dispatch.estimate":
      return estimate(call.input);
    case "dispatch.quote":
      return services.quotes.create({ id: caller!.id, tenant: tenantOf(caller!) }, call.input);
    case "dispatch.order":
      return (
        await services.orders.create(keyCallerOf(caller), call.input, {
          origin: ctx.origin,
          receivedAt: ctx.receivedAt,
        })
      ).body;
    case "dispatch.order_status":
    case "dispatch.cancel_order":
      return runOrderTool(services, call, ctx.origin, caller!);
    case "agentic.readiness_probe":
      return { ...(await services.probe.probe(call.input.url)) };
  }
}

export function createCapabilityInvoker(services: CapabilityServices) {
  const { provisioningContact } = services.config;
  const schemas = deriveCapabilitySchemas();
  const validateInput = createInputValidator();

  return {
    schemas,

    /**
     * Keyed capabilities without a caller throw `missing_credential` (each surface words its own hint);
     * bad input throws `validation`; an unentitled order throws EntitlementError (from the orders service).
     */
    async invoke(id: CapabilityId, rawInput: unknown, ctx: InvokeContext): Promise<Record<string, unknown>> {
      const capability = capabilityById(id)!;
      if (capability.access !== "public" && !ctx.caller)
        throw new DomainError("unauthorized", "missing_credential", `${id} needs a credential.`);
      const access = accessOfOperation(capability.rest.operationId);
      const caller = ctx.caller;
      if (caller && access && !access.anonymous)
        assertMayCall(caller, access, () => notEntitledToOrder(caller, provisioningContact));
      return run(services, validateInput(id, rawInput), ctx, ctx.caller);
    },
  };
}

export type CapabilityInvoker = ReturnType<typeof createCapabilityInvoker>;
