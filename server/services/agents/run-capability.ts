// Runs a capability for a caller, validated against the contract: shared by the MCP tools and the A2A skills
// (REST has its own routes). Also resolves the credentials those two surfaces accept.
import { capabilities } from "./capabilities.js";
import { DomainError, EntitlementError } from "../errors.js";
import type { Services } from "../index.js";
import type { OrderInput } from "../dispatch/orders.js";
import { estimate, tradeIndex } from "../dispatch/pricing.js";
import type { QuoteInput } from "../dispatch/quotes.js";
import { createInputValidator, deriveCapabilitySchemas, type CapabilityId } from "./tool-schemas.js";
import type { EvalPeriod } from "../dispatch/evals.js";

/** Who is calling; the same shape as the auth plugin's principal. */
export type Caller =
  | { kind: "key"; id: string; account: string; scopes: string[] }
  | { kind: "oauth"; id: string; clientId: string; scopes: string[] };

export interface InvokeContext {
  caller: Caller | null;
  /** Base of absolute URLs (status URLs) when PUBLIC_BASE_URL is unset. */
  origin: string;
  receivedAt: number;
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
export const isEntitlementError = (e: unknown): e is EntitlementError => e instanceof EntitlementError;

export type Capability = (typeof capabilities)[number];
type CapabilityServices = Pick<Services, "keys" | "oauth" | "quotes" | "evals" | "orders" | "probe">;

export function capabilityById(id: string): Capability | undefined {
  return capabilities.find((c) => c.id === id);
}

// eslint-disable-next-line max-lines-per-function -- to split after the lifecycle rewrite of this file lands (issue 12)
export function createCapabilityInvoker(services: CapabilityServices) {
  const schemas = deriveCapabilitySchemas();
  const validateInput = createInputValidator(schemas);

  async function run(
    id: CapabilityId,
    input: Record<string, unknown>,
    ctx: InvokeContext,
    caller: Caller | null,
  ): Promise<Record<string, unknown>> {
    switch (id) {
      case "dispatch.index":
        return tradeIndex();
      case "dispatch.evals":
        return services.evals.document(input.period as EvalPeriod);
      case "dispatch.estimate":
        return estimate(input as Parameters<typeof estimate>[0]);
      case "dispatch.quote":
        return services.quotes.create(
          { id: caller!.id, account: caller!.kind === "key" ? caller!.account : null },
          input as unknown as QuoteInput,
        );
      case "dispatch.order":
        return (
          await services.orders.create(caller!, input as unknown as OrderInput, {
            origin: ctx.origin,
            receivedAt: ctx.receivedAt,
          })
        ).body;
      case "agentic.readiness_probe":
        return { ...(await services.probe.probe(input.url as string)) };
    }
  }

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
      return run(id, validateInput(id, rawInput), ctx, ctx.caller);
    },

    /** A provisioned key, or a live OAuth access token; `keys: false` accepts tokens only (A2A bearer). */
    async resolveCredential(secret: string, accept: { keys: boolean }): Promise<Caller | null> {
      const key = accept.keys ? await services.keys.authenticate(secret) : null;
      if (key) return { kind: "key", id: key.id, account: key.account, scopes: key.scopes };
      const token = await services.oauth.verifyToken(secret);
      return token
        ? { kind: "oauth", id: `oauth:${token.clientId}`, clientId: token.clientId, scopes: ["quote"] }
        : null;
    },
  };
}

export type CapabilityInvoker = ReturnType<typeof createCapabilityInvoker>;
