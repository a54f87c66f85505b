// Self-serve OAuth 2.0 client credentials: registration (RFC 7591), tokens (RFC 6749 §4.4), verification.
import { timingSafeEqual } from "node:crypto";
import type { Db } from "../../db/knex.js";
import { OAuthError } from "../errors.js";
import { newId, randomBase62, sha256Hex } from "../shared/ids.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import type { RequestBody, Schemas } from "../../types/contract.js";

export const oauthScope = "dispatch.quote";
const clientLifetimeDays = 365;
/** Expired tokens are kept this long as a client's last use, then purged; an idle client with no token goes too. */
const idleDays = 30;
const purgeEveryMs = 3_600_000;
/** The first purge a minute after start rather than during it (start-up serves first). */
const firstPurgeMs = 60_000;

export interface OAuthPrincipal {
  clientId: string;
  scope: string;
}

/** RFC 7591 §2 client metadata (the contract's registration request); members not read here are ignored. */
export type RegistrationMetadata = RequestBody<"registerOAuthClient">;

// Descriptive metadata is returned as registered (RFC 7591 §3.2.1); it is not stored, nothing reads it later.
const echoedFields = ["client_name", "software_id", "software_version", "client_uri", "contacts"] as const;
const echoed = (input: RegistrationMetadata) =>
  Object.fromEntries(echoedFields.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));

const sameHash = (a: string, b: string) => timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));

async function authenticateClient(db: Db, clientId: string, secret: string) {
  const client = await db("oauth_clients").where({ client_id: clientId }).first();
  if (!client || !sameHash(client.secret_hash, sha256Hex(secret)) || new Date(client.expires_at) <= new Date()) {
    throw new OAuthError("invalid_client", "Unknown client, wrong secret or expired registration.");
  }
  return client;
}

/** RFC 7591 registration: client_credentials only, one scope; the secret is shown once and stored hashed. */
async function registerClient(db: Db, input: RegistrationMetadata): Promise<Schemas["OAuthClientRegistration"]> {
  if (input.grant_types?.some((g) => g !== "client_credentials")) {
    throw new OAuthError("invalid_client_metadata", 'grant_types must be ["client_credentials"].');
  }
  if (input.scope && input.scope !== oauthScope)
    throw new OAuthError("invalid_client_metadata", `The only scope is ${oauthScope}.`);
  const clientId = newId("dcl");
  const secret = `dcs_${randomBase62(40)}`;
  const issued = new Date();
  const expires = new Date(issued.getTime() + clientLifetimeDays * 86_400_000);
  await db("oauth_clients").insert({
    client_id: clientId,
    secret_hash: sha256Hex(secret),
    client_name: input.client_name ?? null,
    scope: oauthScope,
    created_at: issued,
    expires_at: expires,
  });
  return {
    client_id: clientId,
    client_secret: secret,
    client_id_issued_at: Math.floor(issued.getTime() / 1000),
    client_secret_expires_at: Math.floor(expires.getTime() / 1000),
    ...echoed(input),
    grant_types: ["client_credentials"],
    token_endpoint_auth_method: input.token_endpoint_auth_method ?? "client_secret_basic",
    scope: oauthScope,
  };
}

interface TokenRequest {
  grantType?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

/** client_credentials grant: checks are ordered as RFC 6749 reports them (request, client, grant, scope). */
async function issueToken(db: Db, tokenTtlSeconds: number, input: TokenRequest): Promise<Schemas["OAuthToken"]> {
  if (!input.grantType) throw new OAuthError("invalid_request", "grant_type is required.");
  if (!input.clientId || !input.clientSecret)
    throw new OAuthError(
      "invalid_client",
      "Client authentication is required (HTTP Basic or client_id/client_secret).",
    );
  const client = await authenticateClient(db, input.clientId, input.clientSecret);
  if (input.grantType !== "client_credentials")
    throw new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported.");
  const requested = input.scope?.split(" ").filter(Boolean) ?? [oauthScope];
  if (requested.some((s) => s !== oauthScope))
    throw new OAuthError("invalid_scope", `The only scope is ${oauthScope}.`);
  const token = `dat_${randomBase62(40)}`;
  await db("oauth_tokens").insert({
    token_hash: sha256Hex(token),
    client_id: client.client_id,
    scope: oauthScope,
    expires_at: new Date(Date.now() + tokenTtlSeconds * 1000),
  });
  return { access_token: token, token_type: "Bearer" as const, expires_in: tokenTtlSeconds, scope: oauthScope };
}

export function createOAuthService(db: Db, tokenTtlSeconds: number) {
  return {
    register: (input: RegistrationMetadata) => registerClient(db, input),
    issueToken: (input: TokenRequest) => issueToken(db, tokenTtlSeconds, input),

    async verifyToken(token: string): Promise<OAuthPrincipal | null> {
      if (!token.startsWith("dat_")) return null;
      const row = await db("oauth_tokens")
        .where({ token_hash: sha256Hex(token) })
        .where("expires_at", ">", new Date())
        .first();
      return row ? { clientId: row.client_id, scope: row.scope } : null;
    },
  };
}

/** A delete's row count: pg answers a number, knex-pglite its result object. */
const deleted = (result: unknown): number => {
  if (typeof result === "number") return result;
  return typeof result === "object" && result && "rowCount" in result && typeof result.rowCount === "number"
    ? result.rowCount
    : 0;
};

/** Deletes tokens expired over `idleDays` ago, then clients expired or registered over `idleDays` ago with no token. */
export async function purgeOAuth(db: Db, now = new Date()): Promise<{ tokens: number; clients: number }> {
  const cutoff = new Date(now.getTime() - idleDays * 86_400_000);
  const tokens = await db("oauth_tokens").where("expires_at", "<", cutoff).delete();
  const idle = db("oauth_clients")
    .where("created_at", "<", cutoff)
    .whereNotExists(db("oauth_tokens").whereRaw("oauth_tokens.client_id = oauth_clients.client_id"));
  const expired = db("oauth_clients").where("expires_at", "<=", now).select("client_id");
  await db("oauth_tokens").whereIn("client_id", expired).delete();
  const clients = await db("oauth_clients")
    .whereIn("client_id", idle.select("client_id"))
    .orWhere("expires_at", "<=", now)
    .delete();
  return { tokens: deleted(tokens), clients: deleted(clients) };
}

/** Runs purgeOAuth a minute after start and hourly; a failure is logged and retried with backoff (the database may be down). */
export function createOAuthPurger(db: Db) {
  let job: BackgroundJob | null = null;
  return {
    start(onError: (error: unknown) => void): void {
      if (job) return;
      const purge = async () => {
        const { tokens, clients } = await purgeOAuth(db);
        return tokens + clients;
      };
      job = startBackgroundJob(
        purge,
        { intervalMs: purgeEveryMs, firstRunMs: firstPurgeMs, maxBackoffMs: purgeEveryMs },
        onError,
      );
    },
    async stop(): Promise<void> {
      await job?.stop();
      job = null;
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
