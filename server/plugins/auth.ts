// Auth strategies over the one principal resolver: `api-key` (x-api-key), `oauth-token` (Bearer token),
// `admin` (operator token), `mcp` (Bearer key or token) and `a2a` (x-api-key, or Bearer token). Failed
// attempts are throttled per (client address, credential) and per address (credential-throttle.ts).
import { createHash, timingSafeEqual } from "node:crypto";
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit, Server } from "@hapi/hapi";
import { DomainError } from "../services/errors.js";
import type { Services } from "../services/index.js";
import { looksLikeApiKey } from "../services/access/keys.js";
import { bearerOf, tenantOfKey, type Caller, type Principal, type Tenant } from "../services/access/principal.js";
import { baseUrlOf } from "./origin.js";
import { clientBucketOf } from "./client-ip.js";
import { admission, failure, success } from "./credential-throttle.js";
import type { Limiters } from "./limiters.js";

export type { Principal } from "../services/access/principal.js";

declare module "@hapi/hapi" {
  // Every scheme here authenticates with `{ principal }`; same type parameters as Hapi's declaration.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface AuthCredentials<AuthUser, AuthApp> {
    principal?: Principal;
  }
}

const realm = { realm: "dispatch" };
type Authenticate = (request: Request) => Promise<Principal>;
interface Options {
  services: Services;
  limiters: Limiters;
  trustedProxies: readonly string[];
}

/** A header's value when the request has it as a string. */
function headerOf(request: Request, name: string): string | undefined {
  const value: unknown = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** The credential headers a scheme reads, as one string naming what was presented (empty: none). */
const presentedCredential = (request: Request) =>
  [request.headers["x-api-key"], request.headers.authorization].filter((v) => typeof v === "string").join("\n");

/** Two credentials (a key in x-api-key and an Authorization header) leave it open who is calling: refused
 * whichever scheme would have read one, rather than one of them being silently ignored. */
function refuseTwoCredentials(request: Request): void {
  if (!headerOf(request, "x-api-key") || !headerOf(request, "authorization")) return;
  throw new DomainError(
    "bad_request",
    "two_credentials",
    "The request carries two credentials, x-api-key and Authorization: send one (an API key in x-api-key, or a token as Authorization: Bearer).",
  );
}

/** Wraps a scheme: refuses two credentials at once, a credential (or an address) over its failure budget before any look-up, charges each
 * wrong credential to both, and remembers good ones (credential-throttle.ts). */
function throttled(options: Options, authenticate: Authenticate, rememberable: boolean) {
  return () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      refuseTwoCredentials(request);
      const credential = presentedCredential(request);
      const presented = { address: clientBucketOf(request, options.trustedProxies), credential, rememberable };
      const refusal = credential ? await admission(options.limiters, presented) : null;
      if (refusal) throw refusal;
      try {
        const principal = await authenticate(request);
        await success(options.limiters, presented);
        return h.authenticated({ credentials: { principal } });
      } catch (error) {
        const missing = Boom.isBoom(error) && "isMissing" in error && error.isMissing === true;
        if (Boom.isBoom(error) && error.output.statusCode === 401 && !missing) {
          const limited = await failure(options.limiters, presented);
          if (limited) throw limited;
        }
        throw error;
      }
    },
  });
}

async function viaApiKey({ services }: Options, presented: string): Promise<Caller> {
  const principal = await services.principals.resolve(presented, { keys: true });
  if (!principal) throw Boom.unauthorized("Invalid or revoked API key.", "ApiKey", realm);
  return principal;
}

async function viaToken({ services }: Options, token: string, hint: string): Promise<Caller> {
  if (looksLikeApiKey(token)) throw Boom.unauthorized(hint, "Bearer", realm);
  const principal = await services.principals.resolve(token, { keys: false });
  if (!principal) throw Boom.unauthorized("Invalid or expired access token.", "Bearer", realm);
  return principal;
}

const apiKey = (o: Options) => async (request: Request) => {
  const presented = headerOf(request, "x-api-key");
  if (!presented) throw Boom.unauthorized(null, "ApiKey", { ...realm, header: "x-api-key" });
  return viaApiKey(o, presented);
};

const oauthToken = (o: Options) => async (request: Request) => {
  const token = bearerOf(request.headers.authorization);
  if (!token) throw Boom.unauthorized(null, "Bearer", realm);
  return viaToken(
    o,
    token,
    "API keys are not accepted as Bearer here: send them in x-api-key (Bearer keys are for the MCP endpoint only).",
  );
};

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Both sides hashed first, so the comparison takes the same time whatever the token's length. */
const admin = (o: Options) => {
  const expected = o.services.config.adminToken ? digest(o.services.config.adminToken) : null;
  // Synchronous check; throttled() calls it inside its try, so a throw here is handled like a rejection.
  return (request: Request): Promise<Principal> => {
    if (!expected)
      throw new DomainError(
        "unavailable",
        "admin_disabled",
        "The admin area is disabled; set DISPATCH_ADMIN_TOKEN to enable it.",
      );
    const token = bearerOf(request.headers.authorization);
    if (!token) throw Boom.unauthorized(null, "Bearer", { realm: "dispatch-admin" });
    if (!timingSafeEqual(digest(token), expected))
      throw Boom.unauthorized("Wrong admin token.", "Bearer", { realm: "dispatch-admin" });
    return Promise.resolve({ kind: "admin", id: "admin" });
  };
};

/** The agents' endpoints (MCP, A2A) run customer capabilities only: a contractor key is refused there outright,
 * as its scopes would refuse it tool by tool. */
function refuseContractor(principal: Caller): Caller {
  if (principal.kind !== "contractor") return principal;
  throw new DomainError(
    "forbidden",
    "insufficient_scope",
    "Contractor keys are for the contractor operations (offers and jobs: listContractorOffers, acceptOffer, declineOffer, listContractorJobs, updateJobStatus, requestPriceRevision, rescheduleJob, listContractorEvents), not this endpoint.",
  );
}

/**
 * The MCP endpoint's 401 (MCP authorization, RFC 6750 §3): a challenge naming the RFC 9728 metadata, so an MCP
 * client can find where to get a credential. `authorization`: the header sent; none carries no error code.
 */
export function mcpUnauthorized(request: Request, publicBaseUrl: string | null, authorization?: string) {
  const description = bearerOf(authorization)
    ? "The bearer credential is unknown, expired or revoked."
    : "Send the credential as Authorization: Bearer <API_KEY>.";
  const error = Boom.unauthorized(description);
  const metadata = `${baseUrlOf(request, publicBaseUrl)}/.well-known/oauth-protected-resource/api/mcp`;
  const failure = authorization === undefined ? "" : `error="invalid_token", error_description="${description}", `;
  error.output.headers["WWW-Authenticate"] = `Bearer realm="dispatch", ${failure}resource_metadata="${metadata}"`;
  return error;
}

/** MCP: a key or token as Bearer; a bad one gets the challenge above. */
const mcp = (o: Options) => async (request: Request) => {
  const header = headerOf(request, "authorization");
  if (!header) throw Boom.unauthorized(null, "Bearer", realm);
  const bearer = bearerOf(header);
  const principal = bearer ? await o.services.principals.resolve(bearer, { keys: true }) : null;
  if (principal) return refuseContractor(principal);
  throw mcpUnauthorized(request, o.services.config.publicBaseUrl, header);
};

/** A2A: x-api-key (a key or token, like REST), or a Bearer OAuth token (keys as Bearer are MCP-only). */
const a2a = (o: Options) => async (request: Request) => {
  const presented = headerOf(request, "x-api-key");
  if (presented) return refuseContractor(await viaApiKey(o, presented));
  const authorization = headerOf(request, "authorization");
  if (!authorization) throw Boom.unauthorized(null, "Bearer", realm);
  const token = bearerOf(authorization);
  const principal = token ? await o.services.principals.resolve(token, { keys: false }) : null;
  if (!principal)
    throw Boom.unauthorized("Invalid or expired access token (API keys go in x-api-key).", "Bearer", realm);
  return principal;
};

export const authPlugin: Plugin<Options> = {
  name: "dispatch-auth",
  register(server: Server, options) {
    const schemes = { "api-key": apiKey, "oauth-token": oauthToken, admin, mcp, a2a };
    for (const [name, make] of Object.entries(schemes)) {
      server.auth.scheme(name, throttled(options, make(options), name !== "admin"));
      server.auth.strategy(name, name);
    }
  },
};

/** The tenant of a key-only operation's caller (the access check admits nothing but keys there). */
export const keyTenantOf = (request: Request): Tenant => tenantOfKey(callerOf(request));

export function principalOf(request: Request): Principal {
  return request.auth.credentials.principal!; // set by every scheme; called on authenticated routes only
}

/** The caller of an `auth: { mode: "optional" }` route, or null when none was presented. */
export function callerOf(request: Request): Caller | null {
  const principal = request.auth.credentials?.principal;
  return principal && principal.kind !== "admin" ? principal : null;
}
