// Domain errors with stable codes. server/plugins/errors.ts is the one place that turns them into HTTP.
import type { Schemas } from "../types/contract.js";

export type ErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation"
  | "rate_limited"
  | "unavailable";

export interface FieldError {
  pointer: string;
  message: string;
}

/** Every code a DomainError carries, with its kind (hence its status): the one table, so a typo is a type error. */
export const domainErrorCodes = {
  malformed_body: "bad_request",
  malformed_seal: "bad_request",
  invalid_tree_sizes: "bad_request",
  invalid_url: "bad_request",
  two_credentials: "bad_request",
  missing_credential: "unauthorized",
  api_key_required: "unauthorized",
  insufficient_scope: "forbidden",
  live_key: "forbidden",
  origin_not_allowed: "forbidden",
  not_found: "not_found",
  seal_not_found: "not_found",
  cannot_cancel: "conflict",
  confirmation_invalid: "conflict",
  contractor_at_capacity: "conflict",
  held_over_nte: "conflict",
  idempotency_conflict: "conflict",
  invalid_transition: "conflict",
  key_taken: "conflict",
  no_contractor_in_area: "conflict",
  no_window_available: "conflict",
  order_not_reschedulable: "conflict",
  over_nte: "conflict",
  quote_expired: "conflict",
  window_unavailable: "conflict",
  offer_expired: "conflict",
  offer_closed: "conflict",
  contractor_inactive: "conflict",
  no_scheduled_step: "conflict",
  clock_advancing: "conflict",
  order_not_revisable: "conflict",
  price_revision_not_above: "conflict",
  price_revision_pending: "conflict",
  price_revision_resolved: "conflict",
  validation_failed: "validation",
  invalid_key: "validation",
  quote_mismatch: "validation",
  rate_limited: "rate_limited",
  too_many_streams: "rate_limited",
  admin_disabled: "unavailable",
  dispatch_unavailable: "unavailable",
  not_ready: "unavailable",
  overloaded: "unavailable",
} as const satisfies Record<string, ErrorKind>;
export type DomainErrorCode = keyof typeof domainErrorCodes;

/** The codes plugins/errors.ts answers itself, for framework, transport and database failures. */
export const httpErrorCodes = [
  "client_error",
  "conflict",
  "database_timeout",
  "database_unavailable",
  "internal_error",
  "malformed_body",
  "malformed_request",
  "method_not_allowed",
  "not_found",
  "payload_too_large",
  "unauthorized",
  "unsupported_media_type",
] as const;
export type ErrorCode = DomainErrorCode | (typeof httpErrorCodes)[number];

/** Raised by services for any expected failure; `code` is stable for clients and its table entry fixes `kind`. */
export class DomainError<Code extends DomainErrorCode = DomainErrorCode> extends Error {
  constructor(
    readonly kind: (typeof domainErrorCodes)[Code],
    readonly code: Code,
    message: string,
    readonly extra: {
      errors?: FieldError[];
      retryAfterSeconds?: number;
      /** A `WWW-Authenticate` challenge to send with a 401 or 403. */
      challenge?: string;
      /** A 403 to a key used on the other side: which kind of key it is (the problem's `key_kind`). */
      keyKind?: Schemas["Problem"]["key_kind"];
    } = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Raised when a credential authenticates but is not entitled to create orders; the body is the contract's 402. */
export class EntitlementError extends Error {
  constructor(readonly body: Schemas["EntitlementError"]) {
    super(body.message);
    this.name = "EntitlementError";
  }
}

/** Raised by the OAuth endpoints; answered in RFC 6749 §5.2's format (server/plugins/errors.ts), not as a problem. */
export class OAuthError extends Error {
  constructor(
    readonly error: Schemas["OAuthError"]["error"],
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}
