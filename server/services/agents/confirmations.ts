// Confirmation tokens for the agents' tools that ask before they act (operations with `x-mcp-confirm: true`).
//
// Design: a stored row, not an HMAC. A token must be single-use, and an HMAC alone cannot be spent once without a
// store of spent tokens anyway; a row also lets the server say why a token is refused (used, expired, other
// arguments) and works alike on every instance (PGlite or Postgres, no shared secret to distribute). Only the
// token's SHA-256 is kept, so the table leaks no usable token. The row binds the token to the key that asked
// (and its tenant), the capability and a hash of the exact arguments as the operation would receive them
// (canonical JSON of path, query and body after validation), so an agent cannot preview one thing and confirm
// another, nor hand its token to another key. Spending is one conditional UPDATE (unused, unexpired, same key,
// tool and arguments): two confirmations racing on two instances cannot both run the operation. A token is
// spent before the operation runs: when the operation then fails (409 cannot_cancel …), the agent previews
// again rather than retrying a half-known action. Rows live 5 minutes; a key's dead rows are purged each time it
// previews, so the table holds about what one key's rate limit allows per 5 minutes.
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";
import { randomBase62, sha256Hex } from "../shared/ids.js";
import type { Tenant } from "../shared/tenant.js";

/** How long a preview's token stays valid. */
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
