// Order-time SSRF guard for callback URLs (the shared guard in ssrf.ts); delivery re-checks every connection
// through the outbound client (DNS can change after the order).
import { DomainError } from "../errors.js";
import type { ClientPolicy } from "./http.js";
import { forbiddenRange, refusalOf, type Lookup } from "./ssrf.js";

/** True for loopback, private, link-local, metadata, documentation, multicast and other non-public addresses. */
export const isForbiddenAddress = (address: string): boolean => forbiddenRange(address, false) !== null;

/** Where an environment's callbacks may go: test keys to loopback in sandbox mode, any with WEBHOOK_ALLOW_PRIVATE. */
export function callbackPolicy(
  config: { sandbox: boolean; webhookAllowPrivate: boolean },
  environment: string,
): ClientPolicy {
  return { allowLoopback: config.sandbox && environment === "test", allowPrivate: config.webhookAllowPrivate };
}

function refuse(detail: string): never {
  throw new DomainError("validation", "validation_failed", detail, {
    errors: [{ pointer: "/callback_url", message: detail }],
  });
}

/** 422 (pointer /callback_url) when the callback URL is not a target the policy allows. */
export async function assertCallbackAllowed(
  callbackUrl: string | undefined,
  policy: ClientPolicy,
  lookup?: Lookup,
): Promise<void> {
  if (!callbackUrl || policy.allowPrivate) return;
  const refusal = await refusalOf(new URL(callbackUrl), { allowLoopback: policy.allowLoopback, lookup });
  if (refusal) refuse(`"callback_url" is refused: ${refusal}`);
}
