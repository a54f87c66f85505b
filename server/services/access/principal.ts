// Who is calling: the one principal type and the one credential resolver behind REST, MCP and A2A.
import type { KeyService } from "./keys.js";
import type { OAuthService } from "./oauth.js";
import type { KeyScope } from "../../generated/operations.js";
import type { Tenant } from "../shared/tenant.js";
import { DomainError } from "../errors.js";

export type { Environment, Tenant } from "../shared/tenant.js";

/** A customer key, a contractor's key (no customer tenant), a self-serve OAuth client's token, or the operator. */
export type Principal =
  | ({ kind: "key"; id: string; scopes: readonly KeyScope[] } & Tenant)
  | {
      kind: "contractor";
      id: string;
      contractorId: string;
      environment: Tenant["environment"];
      scopes: readonly KeyScope[];
    }
  | { kind: "oauth"; id: string; clientId: string; scopes: readonly KeyScope[] }
  | { kind: "admin"; id: "admin" };

export type Caller = Exclude<Principal, { kind: "admin" }>;

/** The token of an `Authorization: Bearer <token>` header, or null when the header is absent or another scheme. */
export function bearerOf(authorization: unknown): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(typeof authorization === "string" ? authorization : "");
  return match ? match[1] : null;
}

/** What a self-serve OAuth client's token may do (the OAuthToken scheme: "valid for quote only"). */
export const oauthTokenScopes: readonly KeyScope[] = ["quote"];

export type KeyCaller = Extract<Principal, { kind: "key" }>;

/** The key behind a call the access check admitted only for keys; the throw guards a route that skipped it. */
export function keyCallerOf(caller: Caller | null): KeyCaller {
  if (caller?.kind === "key") return caller;
  throw new DomainError("unauthorized", "api_key_required", "This operation needs an API key (x-api-key).", {
    challenge: 'ApiKey realm="dispatch", header="x-api-key"',
  });
}

export type ContractorCaller = Extract<Principal, { kind: "contractor" }>;

/** The contractor behind a call the access check admitted; the throw guards a route that skipped it. */
export function contractorCallerOf(caller: Caller | null): ContractorCaller {
  if (caller?.kind === "contractor") return caller;
  throw new DomainError("forbidden", "insufficient_scope", "This operation needs a contractor key.");
}

/** The tenant a caller's orders and quotes belong to; OAuth clients and contractors have none. */
export const tenantOf = (caller: Caller): Tenant | null =>
  caller.kind === "key" ? { account: caller.account, environment: caller.environment } : null;

export const tenantOfKey = (caller: Caller | null): Tenant => tenantOf(keyCallerOf(caller))!;

export function createPrincipalResolver(
  keys: Pick<KeyService, "authenticate">,
  oauth: Pick<OAuthService, "verifyToken">,
) {
  return {
    /** A provisioned key (when `accept.keys`), or a live OAuth access token; null when neither. */
    async resolve(secret: string, accept: { keys: boolean }): Promise<Caller | null> {
      const key = accept.keys ? await keys.authenticate(secret) : null;
      if (key?.contractor_id)
        return {
          kind: "contractor",
          id: key.id,
          contractorId: key.contractor_id,
          environment: key.environment,
          scopes: key.scopes,
        };
      if (key)
        return { kind: "key", id: key.id, account: key.account, environment: key.environment, scopes: key.scopes };
      const token = await oauth.verifyToken(secret);
      return token
        ? { kind: "oauth", id: `oauth:${token.clientId}`, clientId: token.clientId, scopes: oauthTokenScopes }
        : null;
    },
  };
}

export type PrincipalResolver = ReturnType<typeof createPrincipalResolver>;
