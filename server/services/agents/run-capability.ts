// Runs a capability for a caller, validated against the contract: shared by the MCP tools and the A2A skills. The
// capability calls its operation's handler, the same function the REST route serves (no switch over capabilities).
import { capabilities, type Capability } from "./capabilities.js";
import { DomainError, EntitlementError } from "../errors.js";
import type { Services } from "../index.js";
import type { OperationContext, OperationHandlers } from "../operation-handler.js";
import { createInputValidator, deriveCapabilitySchemas, operationInputOf, type CapabilityId } from "./tool-schemas.js";
import { accessOfOperation, assertMayCall } from "../access/operation-access.js";
import { notEntitledToOrder } from "../dispatch/entitlement.js";
import { createConfirmationStep, takeConfirmationToken } from "./ask-first.js";
import { createConfirmationStore } from "./confirmations.js";
import { createPreviewFacts } from "./preview-facts.js";

export type { Caller } from "../access/principal.js";

/** What a capability's handler knows of its call (an agent sends no idempotency key). */
export type InvokeContext = OperationContext;

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
export const isEntitlementError = (e: unknown): e is EntitlementError => e instanceof EntitlementError;

export type { Capability } from "./capabilities.js";

/** What one request costs the rate limiter: one point per message, plus the probe's own policy per probe call. */
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
export function capabilityById(id: string): Capability | undefined {
  return capabilities.find((c) => c.id === id);
}

/** Runs each capability with its operation's handler (services/operation-handler.ts), previewing confirming ones. */
export function createCapabilityInvoker(
  services: Pick<Services, "config" | "db" | "quotes">,
  handlers: OperationHandlers,
) {
  const { provisioningContact } = services.config;
  const schemas = deriveCapabilitySchemas();
  const validateInput = createInputValidator();
  const confirm = createConfirmationStep(createConfirmationStore(services.db), handlers, createPreviewFacts(services));

  return {
    schemas,

    /** Throws `missing_credential`, `validation` or EntitlementError, or answers a confirming capability's preview. */
    async invoke(id: CapabilityId, rawInput: unknown, ctx: InvokeContext): Promise<Record<string, unknown>> {
      const capability = capabilityById(id)!;
      const { args, token } = capability.confirm
        ? takeConfirmationToken(rawInput)
        : { args: rawInput, token: undefined };
      if (capability.access !== "public" && !ctx.caller)
        throw new DomainError("unauthorized", "missing_credential", `${id} needs a credential.`);
      const access = accessOfOperation(capability.rest.operationId);
      const caller = ctx.caller;
      if (caller && access && !access.anonymous)
        assertMayCall(caller, access, () => notEntitledToOrder(caller, provisioningContact));
      const { operationId, path } = capability.rest;
      const handle = handlers.handlerOf(operationId);
      if (!handle) throw new Error(`No route serves ${operationId} with a handle (capability ${id}).`);
      const { input } = validateInput(id, args);
      // joi answers an object (or {} for an operation without input)
      const operationInput = operationInputOf(operationId, path, input as Record<string, unknown>);
      if (capability.confirm) {
        const preview = await confirm(capability, input as Record<string, unknown>, operationInput, token, ctx);
        if (preview) return { ...preview };
      }
      const reply = await handle(operationInput, ctx);
      return reply.body as Record<string, unknown>;
    },
  };
}

export type CapabilityInvoker = ReturnType<typeof createCapabilityInvoker>;
