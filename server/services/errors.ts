// Domain errors with stable codes. server/plugins/errors.ts is the one place that turns them into HTTP.

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

/** Raised by services for any expected failure; `kind` picks the status, `code` is stable for clients. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: {
      errors?: FieldError[];
      retryAfterSeconds?: number;
      /** A `WWW-Authenticate` challenge to send with a 401 or 403. */
      challenge?: string;
    } = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Raised when a credential authenticates but is not entitled to create orders (spec §2.2 body). */
export class EntitlementError extends Error {
  constructor(
    readonly body: {
      error: "payment_required";
      message: string;
      entitled_credential: string;
      provisioning_contact: string;
      free_alternatives: string[];
    },
  ) {
    super(body.message);
    this.name = "EntitlementError";
  }
}

/** Raised by the OAuth endpoints; answered in the RFC 6749 §5.2 format, not as a problem document, with the status
 * the RFC gives the code (server/plugins/errors.ts). `slow_down` is the token endpoint's registered code for "too
 * many attempts" (RFC 8628 §3.5). */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "unsupported_grant_type"
      | "invalid_scope"
      | "invalid_client_metadata"
      | "slow_down",
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}
