// Who may call an operation, from the contract's security requirements (server/generated/security.ts): the
// credential's kind must be one the operation lists, and a key must hold the scope the requirement names. REST
// checks every route through plugins/access.ts; MCP tools and A2A skills check their REST twin's requirement.
import { operationAccess, type KeyScope, type OperationAccess } from "../../generated/security.js";
import { DomainError, type EntitlementError } from "../errors.js";
import type { Caller } from "./principal.js";

const byOperationId = new Map(Object.values(operationAccess).map((access) => [access.operationId, access]));

/** The access entry of a route (`GET`, `/api/dispatch/v1/orders/{id}`), undefined for paths not in the contract. */
export const accessOfRoute = (method: string, path: string): OperationAccess | undefined =>
  operationAccess[`${method.toUpperCase()} ${path}`];

export const accessOfOperation = (operationId: string): OperationAccess | undefined => byOperationId.get(operationId);

const schemeOf = (caller: Caller) => (caller.kind === "key" ? "ApiKey" : "OAuthToken");

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
  if (access.entitlement) throw entitlement();
  const held = caller.scopes.length ? caller.scopes.join(", ") : "none";
  throw new DomainError(
    "forbidden",
    "insufficient_scope",
    `This key lacks the ${missing.join(", ")} scope that ${access.operationId} needs; its scopes are ${held}.`,
    { challenge: insufficientScopeChallenge(missing) },
  );
}
