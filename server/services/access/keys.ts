// API keys: issue (shown once), hash-only storage, checksum, lookup and revocation.
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import type { ApiKeyRow } from "../../db/tables/access.js";
import { appendAudit } from "../audit/entries.js";
import { DomainError } from "../errors.js";
import { createInvalidatedCache } from "../shared/cache.js";
import { newId, randomBase62, sha256Hex } from "../shared/ids.js";
import { apiKeyChecksum, looksLikeApiKey } from "../../api-key-format.js";
import { defaultKeyScopes, type KeyScope } from "../../generated/operations.js";
import { contractEnums } from "../../generated/contract.js";

export type { KeyScope } from "../../generated/operations.js";
export { looksLikeApiKey } from "../../api-key-format.js";
export interface ApiKeyRecord {
  id: string;
  account: string;
  environment: ApiKeyRow["environment"];
  prefix: string;
  label: string | null;
  scopes: KeyScope[];
  created_at: string;
  revoked_at: string | null;
  contractor_id?: string;
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    ...(row.contractor_id ? { contractor_id: row.contractor_id } : {}),
    id: row.id,
    account: row.account,
    environment: row.environment,
    prefix: row.prefix,
    label: row.label ?? null,
    scopes: row.scopes,
    created_at: new Date(row.created_at).toISOString(),
    revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  };
}

interface IssueInput {
  account: string;
  environment: ApiKeyRow["environment"];
  label?: string;
  scopes?: KeyScope[];
  /** Binds the key to this contractor (createContractorKey): its account is then the contractor's id. */
  contractorId?: string;
}

/** The scopes only contractor keys hold, and what a contractor key holds when issued without a list. */
export const contractorKeyScopes: readonly KeyScope[] = contractEnums.ContractorKeyScope;
const isContractorScope = (scope: KeyScope) => contractorKeyScopes.includes(scope);

/** 422 for a key asking for the other principal's scope: the two principals never share an operation. */
function assertScopesFit(input: Pick<IssueInput, "scopes" | "contractorId">): void {
  const foreign = (input.scopes ?? []).filter((scope) => isContractorScope(scope) !== Boolean(input.contractorId));
  if (!foreign.length) return;
  const what = input.contractorId ? "A contractor key" : "A customer key";
  const message = `${what} cannot hold ${foreign.join(", ")}.`;
  throw new DomainError("validation", "validation_failed", message, {
    errors: [{ pointer: "#/scopes", message }],
  });
}

const scopesOf = (input: IssueInput) => input.scopes ?? (input.contractorId ? contractorKeyScopes : defaultKeyScopes);

/** Stores a key's hash (never the key) and audits the issue; `fresh: false` when the key was stored already. */
async function storeKey(db: Db, key: string, input: IssueInput) {
  const row = {
    id: newId("key"),
    account: input.account,
    environment: input.environment,
    prefix: key.slice(0, "dispatch_live_".length + 4),
    key_hash: sha256Hex(key),
    label: input.label ?? null,
    scopes: JSON.stringify(scopesOf(input)),
    contractor_id: input.contractorId ?? null,
  };
  return db.transaction(async (trx) => {
    const [inserted] = await trx("api_keys").insert(row).onConflict("key_hash").ignore().returning("*");
    // Ignored on conflict: the key is stored already, so the look-up finds it.
    if (!inserted) return { stored: (await trx("api_keys").where({ key_hash: row.key_hash }).first())!, fresh: false };
    await appendAudit(trx, {
      type: "key_issued",
      tenant: { account: row.account, environment: row.environment },
      subject: row.id,
      content: {
        environment: row.environment,
        prefix: row.prefix,
        scopes: scopesOf(input),
        ...(row.contractor_id ? { contractor_id: row.contractor_id } : {}),
      },
    });
    return { stored: inserted, fresh: true };
  });
}

/** A new random key in the issued format: `dispatch_{environment}_` + 32 base62 characters + checksum. */
export function mintApiKey(environment: "test" | "live"): string {
  const body = `${environment}_${randomBase62(32)}`;
  return `dispatch_${body}${apiKeyChecksum(body)}`;
}

async function issueKey(db: Db, input: IssueInput) {
  assertScopesFit(input);
  const key = mintApiKey(input.environment);
  const { stored } = await storeKey(db, key, input);
  return { ...toRecord(stored), key };
}

/** Stores a key minted elsewhere (sandbox, fixtures) as an issued one; a stored one stays unless another tenant's. */
async function registerKey(
  db: Db,
  key: string,
  input: Omit<IssueInput, "environment" | "contractorId">,
): Promise<ApiKeyRecord> {
  if (!looksLikeApiKey(key))
    throw new DomainError(
      "validation",
      "invalid_key",
      `${key.slice(0, 18)}… is not a key in the format the server issues.`,
    );
  assertScopesFit(input);
  const environment = key.startsWith("dispatch_test_") ? "test" : "live";
  const { stored, fresh } = await storeKey(db, key, { ...input, environment });
  const record = toRecord(stored);
  if (!fresh && (record.account !== input.account || record.revoked_at))
    throw new DomainError("conflict", "key_taken", `Key ${record.prefix}… is stored already for another use.`);
  return record;
}

/** Revokes once (audited); revoking again returns the already revoked key. */
async function revokeKey(db: Db, feed: ChangeFeed | null, id: string): Promise<ApiKeyRecord> {
  const row = await db.transaction(async (trx) => {
    const revoked = await trx("api_keys")
      .where({ id })
      .whereNull("revoked_at")
      .update({ revoked_at: trx.fn.now() })
      .returning("*");
    if (revoked[0])
      await appendAudit(trx, {
        type: "key_revoked",
        tenant: { account: revoked[0].account, environment: revoked[0].environment },
        subject: id,
        content: { prefix: revoked[0].prefix },
      });
    return revoked[0] ?? (await trx("api_keys").where({ id }).first());
  });
  feed?.announce("api_keys");
  if (!row) throw new DomainError("not_found", "not_found", `No API key ${id}.`);
  return toRecord(row);
}

export function createKeyService(db: Db, feed: ChangeFeed | null = null) {
  const active = createInvalidatedCache<ApiKeyRecord>(feed, "api_keys", 60_000);
  return {
    issue: (input: Omit<IssueInput, "contractorId">) => issueKey(db, input),
    /** createContractorKey: a key bound to one contractor (which the caller has checked exists). */
    issueForContractor: (contractorId: string, input: Omit<IssueInput, "account" | "contractorId">) =>
      issueKey(db, { ...input, account: contractorId, contractorId }),
    register: (key: string, input: Omit<IssueInput, "environment" | "contractorId">) => registerKey(db, key, input),

    /** The active key for a presented secret, or null (unknown, malformed or revoked). */
    async authenticate(presented: string): Promise<ApiKeyRecord | null> {
      const keyHash = sha256Hex(presented);
      // A cached hash is a key that was checked already; the checksum guards the database from typos and noise.
      return active.get(keyHash, async () => {
        if (!looksLikeApiKey(presented)) return null;
        const row = await db("api_keys").where({ key_hash: keyHash }).whereNull("revoked_at").first();
        return row ? toRecord(row) : null;
      });
    },

    async list(filter: { account?: string; limit: number; cursor?: string }) {
      const query = db("api_keys")
        .orderBy("id")
        .limit(filter.limit + 1);
      if (filter.account) query.where({ account: filter.account });
      if (filter.cursor) query.where("id", ">", filter.cursor);
      const rows = (await query).map(toRecord);
      const page = rows.slice(0, filter.limit);
      return { items: page, next_cursor: rows.length > filter.limit ? page.at(-1)!.id : null };
    },

    revoke: (id: string) => revokeKey(db, feed, id),

    /** Which of these key ids are revoked: one query for every open event stream's key. */
    async revokedAmong(ids: string[]): Promise<Set<string>> {
      const rows = await db("api_keys").whereIn("id", ids).whereNotNull("revoked_at").select<{ id: string }[]>("id");
      return new Set(rows.map((row) => row.id));
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
