// Order-time SSRF guard for callback URLs (the shared guard in ssrf.ts); delivery re-checks every connection
// through the outbound client (DNS can change after the order).
import { DomainError } from "../errors.js";
import { forbiddenRange, refusalOf, type Lookup } from "./ssrf.js";

/** True for loopback, private, link-local, metadata, documentation, multicast and other non-public addresses. */
export const isForbiddenAddress = (address: string): boolean => forbiddenRange(address, false) !== null;

function refuse(detail: string): never {
  throw new DomainError("validation", "validation_failed", detail, {
    errors: [{ pointer: "/callback_url", message: detail }],
  });
}

/** 422 (pointer /callback_url) when the callback URL is not public http(s), unless private targets are allowed. */
export async function assertCallbackAllowed(
  callbackUrl: string | undefined,
  allowPrivate: boolean,
  lookup?: Lookup,
): Promise<void> {
  if (!callbackUrl || allowPrivate) return;
  const refusal = await refusalOf(new URL(callbackUrl), { allowLoopback: false, lookup });
  if (refusal) refuse(`"callback_url" is refused: ${refusal}`);
}
