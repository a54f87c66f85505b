// The confirmation step of `x-mcp-confirm` capabilities (MCP and A2A): a first call previews with a token
// (confirmations.ts), writing nothing; a second with the token runs it (why: docs/decisions.md, agent tasks).
import { canonicalJson, sha256Hex } from "../shared/ids.js";
import { isRecord } from "../shared/is-record.js";
import { DomainError } from "../errors.js";
import { tenantOf } from "../access/principal.js";
import type { OperationContext, OperationHandlers } from "../operation-handler.js";
import type { Capability } from "./capabilities.js";
import type { ConfirmationBinding, ConfirmationStore } from "./confirmations.js";
import type { PreviewFacts } from "./preview-facts.js";

/** The argument a confirming tool or skill takes beside its operation's input. */
export const confirmationTokenSchema = {
  type: "string",
  minLength: 1,
  maxLength: 100,
  description:
    "The token of this tool's preview: call first without it (nothing is done; the answer previews the action), then again with the same arguments and this token to act. Single use, valid 5 minutes.",
} as const;

/** What the first call answers (the tool's output schema allows it beside the operation's answer). */
export const confirmationPreviewSchema = {
  type: "object",
  description: "Nothing was done yet: what the call would do, and the token that confirms it.",
  required: [
    "confirmation_required",
    "capability",
    "action",
    "arguments",
    "confirmation_token",
    "expires_at",
    "message",
  ],
  properties: {
    confirmation_required: { const: true },
    capability: { type: "string" },
    action: { type: "string" },
    arguments: { type: "object", description: "The validated arguments the confirmation is bound to." },
    order: { type: "object", description: "The order as it is now (getOrder), for an action on an order." },
    estimate: {
      type: "object",
      description:
        "For a new order: the price and response it would be matched at now (createQuote's figures, not stored).",
    },
    confirmation_token: { type: "string" },
    expires_at: { type: "string", format: "date-time" },
    message: { type: "string" },
  },
  additionalProperties: false,
} as const;

export interface ConfirmationPreview {
  confirmation_required: true;
  capability: string;
  action: string;
  arguments: Record<string, unknown>;
  order?: unknown;
  estimate?: unknown;
  confirmation_token: string;
  expires_at: string;
  message: string;
}

export const isConfirmationPreview = (value: unknown): value is ConfirmationPreview =>
  isRecord(value) && value.confirmation_required === true;

/** Splits `confirmation_token` from a confirming capability's raw arguments (a bad token is a validation error). */
export function takeConfirmationToken(raw: unknown): { args: unknown; token: string | undefined } {
  if (!isRecord(raw) || !("confirmation_token" in raw)) return { args: raw, token: undefined };
  const { confirmation_token: token, ...args } = raw;
  if (typeof token !== "string" || token.length < 1 || token.length > confirmationTokenSchema.maxLength)
    throw new DomainError("validation", "validation_failed", "Invalid confirmation_token: a string of 1 to 100.", {
      errors: [{ pointer: "/confirmation_token", message: "must be a string of 1 to 100 characters" }],
    });
  return { args, token };
}

interface OperationInput {
  params: Record<string, unknown>;
  query: unknown;
  payload: unknown;
}

/** The order an action on `/orders/{id}/…` would touch, read as getOrder reads it for this caller. */
async function currentOrder(
  handlers: OperationHandlers,
  capability: Capability,
  input: OperationInput,
  ctx: OperationContext,
) {
  if (!capability.rest.path.includes("/orders/{id}")) return undefined;
  const getOrder = handlers.handlerOf("getOrder");
  if (!getOrder) return undefined;
  return (await getOrder({ params: { id: input.params.id }, query: {}, payload: null }, ctx)).body;
}

function bindingOf(capability: Capability, input: OperationInput, ctx: OperationContext): ConfirmationBinding {
  const tenant = ctx.caller && tenantOf(ctx.caller);
  // the access check admitted only keyed callers here; the guard keeps a token from ever lacking its tenant
  if (!ctx.caller || !tenant)
    throw new DomainError("unauthorized", "api_key_required", "Confirmation needs an API key.");
  return { callerId: ctx.caller.id, tenant, capability: capability.id, argumentsHash: sha256Hex(canonicalJson(input)) };
}

/** `facts`: what particular operations add to their preview (preview-facts.ts); none is needed to confirm. */
export function createConfirmationStep(
  store: ConfirmationStore,
  handlers: OperationHandlers,
  facts: PreviewFacts = {},
) {
  /** Null when `token` confirms this call (spent now); otherwise the preview with a new token. */
  return async function confirm(
    capability: Capability,
    args: Record<string, unknown>,
    input: OperationInput,
    token: string | undefined,
    ctx: OperationContext,
  ): Promise<ConfirmationPreview | null> {
    const binding = bindingOf(capability, input, ctx);
    const now = new Date(ctx.receivedAt);
    if (token !== undefined) {
      await store.spend(binding, token, now);
      return null;
    }
    const order = await currentOrder(handlers, capability, input, ctx);
    const extra = (await facts[capability.rest.operationId]?.(input, binding.tenant)) ?? {};
    const issued = await store.issue(binding, now);
    return {
      confirmation_required: true,
      capability: capability.id,
      action: capability.purpose,
      arguments: args,
      ...(order === undefined ? {} : { order }),
      ...extra,
      confirmation_token: issued.token,
      expires_at: issued.expiresAt.toISOString(),
      message: `Nothing was done. To ${capability.name.toLowerCase()}, call ${capability.id} again with the same arguments and "confirmation_token": "${issued.token}" (once, before ${issued.expiresAt.toISOString()}).`,
    };
  };
}
