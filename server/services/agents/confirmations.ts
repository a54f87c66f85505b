// Confirmation tokens of `x-mcp-confirm` tools: a stored row (the token's SHA-256) bound to key, capability and
// arguments, spent by one conditional UPDATE (why a row: docs/decisions.md, agent tasks and confirmations).
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";
import { randomBase62, sha256Hex } from "../shared/ids.js";
import type { Tenant } from "../shared/tenant.js";

export const confirmationTtlMs = 5 * 60_000;

/** Who asked, for what: a token is valid only for the same key, capability and arguments. */
export interface ConfirmationBinding {
  callerId: string;
  tenant: Tenant;
  capability: string;
  argumentsHash: string;
}

export interface IssuedConfirmation {
  token: string;
  expiresAt: Date;
}

/** Why a token presented by `callerId` was not spendable (another key's token reads as unknown). */
function refusalReason(
  row: { capability: string; arguments_hash: string; used_at: Date | null; expires_at: Date } | undefined,
  now: Date,
): string {
  if (!row) return "unknown to this key";
  if (row.used_at) return "already used";
  if (new Date(row.expires_at).getTime() <= now.getTime()) return "expired";
  return "issued for another tool or other arguments";
}

/** Deletes a key's spent and expired tokens (they can only be refused). */
async function purgeDead(db: Db, callerId: string, now: Date): Promise<void> {
  await db("agent_confirmations")
    .where({ caller_id: callerId })
    .where((dead) => {
      void dead.where("expires_at", "<=", now).orWhereNotNull("used_at");
    })
    .delete();
}

/** Throws 409 `confirmation_invalid`, saying why `tokenHash` could not be spent by `binding`'s key. */
async function refuse(db: Db, binding: ConfirmationBinding, tokenHash: string, now: Date): Promise<never> {
  const row = await db("agent_confirmations")
    .where({ token_hash: tokenHash, caller_id: binding.callerId })
    .first("capability", "arguments_hash", "used_at", "expires_at");
  throw new DomainError(
    "conflict",
    "confirmation_invalid",
    `The confirmation token is ${refusalReason(row, now)}; nothing was done. Call ${binding.capability} without confirmation_token for a new preview.`,
  );
}

export function createConfirmationStore(db: Db) {
  return {
    /** A new single-use token for `binding`, valid for confirmationTtlMs from `now`. */
    async issue(binding: ConfirmationBinding, now: Date): Promise<IssuedConfirmation> {
      const token = `dcf_${randomBase62(32)}`;
      const expiresAt = new Date(now.getTime() + confirmationTtlMs);
      await purgeDead(db, binding.callerId, now);
      await db("agent_confirmations").insert({
        token_hash: sha256Hex(token),
        caller_id: binding.callerId,
        account: binding.tenant.account,
        environment: binding.tenant.environment,
        capability: binding.capability,
        arguments_hash: binding.argumentsHash,
        created_at: now,
        expires_at: expiresAt,
      });
      return { token, expiresAt };
    },

    /** Spends `token` for `binding`, or throws 409 `confirmation_invalid` saying why (nothing is done then). */
    async spend(binding: ConfirmationBinding, token: string, now: Date): Promise<void> {
      const tokenHash = sha256Hex(token);
      const spent = await db("agent_confirmations")
        .where({
          token_hash: tokenHash,
          caller_id: binding.callerId,
          account: binding.tenant.account,
          environment: binding.tenant.environment,
          capability: binding.capability,
          arguments_hash: binding.argumentsHash,
        })
        .whereNull("used_at")
        .where("expires_at", ">", now)
        .update({ used_at: now }, ["token_hash"]);
      if (!spent.length) await refuse(db, binding, tokenHash, now);
    },
  };
}

export type ConfirmationStore = ReturnType<typeof createConfirmationStore>;
