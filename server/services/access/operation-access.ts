// Who may call an operation, from the contract's security requirements (server/generated/operations.ts): the
// credential's kind must be one the operation lists, and a key must hold the named scope (REST, MCP and A2A).
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

export const accessOfOperation = (operationId: string | undefined): OperationAccess | undefined =>
  operationId === undefined ? undefined : byId.get(operationId);

const schemeOf = (caller: Caller) => (caller.kind === "oauth" ? "OAuthToken" : "ApiKey");

/** RFC 6750 §3.1's challenge, for the key scheme. */
export const insufficientScopeChallenge = (scopes: readonly KeyScope[]) =>
  `ApiKey realm="dispatch", error="insufficient_scope", scope="${scopes.join(" ")}"`;

/** Throws unless `caller` may call the operation: 401 wrong credential kind, 403 `insufficient_scope`, or 402. */
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
  throw new DomainError("forbidden", "insufficient_scope", scopeRefusal(caller, access.operationId, missing), {
    challenge: insufficientScopeChallenge(missing),
    keyKind: wrongSide(caller, missing),
  });
}

const isContractorScope = (scope: KeyScope) => scope.startsWith("contractor:");

const operationsOf = (scopes: readonly KeyScope[]) =>
  [...byId.values()]
    .filter(({ schemes }) => schemes.ApiKey?.length && schemes.ApiKey.every((scope) => scopes.includes(scope)))
    .map(({ operationId }) => operationId);

/** The kind of key `caller` is when the operation is the other side's; undefined for one merely lacking a scope. */
function wrongSide(caller: Caller, missing: readonly KeyScope[]): "customer" | "contractor" | undefined {
  if (caller.kind === "contractor" && !missing.some(isContractorScope)) return "contractor";
  if (caller.kind === "key" && missing.every(isContractorScope) && !caller.scopes.some(isContractorScope))
    return "customer";
  return undefined;
}

/** The first few of a list, and how many more. */
function someOf(names: string[], shown = 4): string {
  if (names.length <= shown) return names.join(", ");
  return `${names.slice(0, shown).join(", ")} and ${String(names.length - shown)} more`;
}

/** Why the key may not call the operation; a key of the other side is told which kind it is and what it calls. */
function scopeRefusal(caller: Caller, operationId: string, missing: KeyScope[]): string {
  const wanted = `the ${missing.join(", ")} scope`;
  const mine = operationsOf(caller.scopes);
  const side = wrongSide(caller, missing);
  if (side === "contractor")
    return `This is a contractor key: it calls the contractor's operations (${someOf(mine, mine.length)}), not ${operationId}, which takes a customer key with ${wanted}.`;
  if (side === "customer")
    return `This is a customer key${mine.length ? ` (it calls ${someOf(mine)})` : ""}: ${operationId} is a contractor's operation and takes a contractor key with ${wanted}, which an operator issues with createContractorKey.`;
  const held = caller.scopes.length ? caller.scopes.join(", ") : "none";
  return `This key lacks ${wanted} that ${operationId} needs; its scopes are ${held}.`;
}
