// Webhook verification (subpath `@dispatch/sdk/webhooks`): Standard Webhooks signatures through the standardwebhooks package.
import { Webhook } from "standardwebhooks";
import type { components } from "./generated/openapi.js";

/** One event of the catalogue (openapi.yaml `webhooks`): what a callback_url and a `dispatch listen` receiver get. */
export type OrderWebhook = components["schemas"]["DispatchEvent"];

/** Raised when a webhook's signature, timestamp (older or newer than 5 minutes) or headers do not verify. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (out[name] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Verifies a webhook from the raw body (exactly as received) and its headers with the account's secret
 * (`whsec_…`, from `getWebhookSecret`), and returns the typed event.
 */
export function verifyWebhook(body: string | Uint8Array, headers: HeaderSource, secret: string): OrderWebhook {
  const payload = typeof body === "string" ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, plainHeaders(headers)) as OrderWebhook;
  } catch (err) {
    throw new WebhookVerificationError((err as Error).message);
  }
}
