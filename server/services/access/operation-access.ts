// Who may call an operation, from the contract's security requirements (the operation table,
// server/generated/operations.ts): the credential's kind must be one the operation lists, and a key must hold the
// scope the requirement names. REST checks every route through plugins/access.ts by the route's operationId; MCP
// tools and A2A skills check the requirement of the operation they run.
import { operations, type KeyScope, type Operation } from "../../generated/operations.js";
import { DomainError, type EntitlementError } from "../errors.js";
import type { Caller } from "./principal.js";

export interface OperationAccess extends Operation {
  /** An operation of the contract (or, in a test, of a copy of it). */
  operationId: string;
}

const byId = new Map<string, OperationAccess>(
  Object.entries(operations).map(([operationId, operation]) => [operationId, { operationId, ...operation }]),
);

/** The operation's access entry, undefined for an id that is not in the contract. */
export const accessOfOperation = (operationId: string | undefined): OperationAccess | undefined =>
  operationId === undefined ? undefined : byId.get(operationId);

const schemeOf = (caller: Caller) => (caller.kind === "oauth" ? "OAuthToken" : "ApiKey");

/** RFC 6750 §3.1's challenge, for the key scheme. */
export const insufficientScopeChallenge = (scopes: readonly KeyScope[]) =>
  `ApiKey realm="dispatch", error="insufficient_scope", scope="${scopes.join(" ")}"`;

/**
 * Throws unless `caller` may call the operation: 401 for a credential kind it does not accept (an OAuth token on a
 * key-only operation), 403 `insufficient_scope` for a key without its scope, or — where the contract documents
 * 402 — the entitlement error `entitlement()` makes.
 */
export function assertMayCall(caller: Caller, access: OperationAccess, entitlement: () => EntitlementError): void {
  const needed = access.schemes[schemeOf(caller)];
  if (!needed)
    throw new DomainError(
      "unauthorized",
      "api_key_required",
      `${access.operationId} takes an API key in x-api-key; an OAuth access token is not accepted here.`,
      { challenge: 'ApiKey realm="dispatch", header="x-api-key"' },
    );
  const missing = needed.filter((scope) => !caller.scopes.includes(scope));
  if (!missing.length) return;
  // A contractor key is never a customer credential that could be entitled: it is refused like any missing scope.
  if (access.entitlement && caller.kind !== "contractor") throw entitlement();
  const held = caller.scopes.length ? caller.scopes.join(", ") : "none";
  throw new DomainError(
    "forbidden",
    "insufficient_scope",
    `This key lacks the ${missing.join(", ")} scope that ${access.operationId} needs; its scopes are ${held}.`,
    { challenge: insufficientScopeChallenge(missing) },
  );
}
