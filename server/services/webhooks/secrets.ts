// Webhook signing secrets: one current secret per account and, after rotations, the replaced ones that still sign.
import type { Knex } from "knex";
import { randomBytes } from "node:crypto";

type Conn = Knex | Knex.Transaction;

/** How long a replaced secret keeps signing beside the new one. */
const overlapHours = 24;
/** Secrets that sign at once: the current one and the three newest replaced ones (webhook-signature stays ≤ 200). */
const maxSigning = 4;

export interface WebhookSecret {
  account: string;
  secret: string;
  created_at: string;
}

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`; // Standard Webhooks: base64 of 24 bytes
const viewOf = (row: { account: string; secret: string; created_at: Date | string }): WebhookSecret => ({
  account: row.account,
  secret: row.secret,
  created_at: new Date(row.created_at).toISOString(),
});

/** An INSERT giving each account without a signing secret a new one (usable as a CTE of a larger statement). */
export function insertMissingSecrets(db: Conn, accounts: string[]) {
  return db("webhook_secrets")
    .insert(accounts.map((account) => ({ account, secret: newSecret() })))
    .onConflict("account")
    .ignore();
}

/** The account's signing secret, created on first use. */
export async function ensureWebhookSecret(db: Conn, account: string): Promise<WebhookSecret> {
  await insertMissingSecrets(db, [account]);
  return viewOf(await db("webhook_secrets").where({ account }).first());
}

/** Keeps the newest replaced secrets that may still sign and drops the rest. */
async function pruneRetired(trx: Knex.Transaction, account: string): Promise<void> {
  const newest = trx("webhook_retired_secrets")
    .select("id")
    .where({ account })
    .orderBy("id", "desc")
    .limit(maxSigning - 1);
  await trx("webhook_retired_secrets")
    .where({ account })
    .andWhere((q) => {
      void q.where("expires_at", "<=", trx.fn.now()).orWhereNotIn("id", newest);
    })
    .delete();
}

/** rotateWebhookSecret: a new current secret; the one it replaces signs until `previous_expires_at`. */
export function rotateWebhookSecret(db: Knex, account: string) {
  return db.transaction(async (trx) => {
    const columns = ["account", "secret", "created_at"];
    const [first] = await trx("webhook_secrets")
      .insert({ account, secret: newSecret() })
      .onConflict("account")
      .ignore()
      .returning(columns);
    if (first) return { ...viewOf(first), previous_expires_at: null };
    const current = await trx("webhook_secrets").where({ account }).forUpdate().first("secret"); // serializes rotations
    const [retired] = await trx("webhook_retired_secrets")
      .insert({ account, secret: current.secret, expires_at: trx.raw(`now() + interval '${overlapHours} hours'`) })
      .returning("expires_at");
    const [rotated] = await trx("webhook_secrets")
      .where({ account })
      .update({ secret: newSecret(), created_at: trx.fn.now() })
      .returning(columns);
    await pruneRetired(trx, account);
    return { ...viewOf(rotated), previous_expires_at: new Date(retired.expires_at).toISOString() };
  });
}

/** Every secret that signs the account's webhooks now: the current one first, then unexpired replaced ones. */
export async function signingSecrets(db: Conn, account: string): Promise<string[]> {
  const result = await db.raw(
    `select secret from (
       select secret, 0 as rank, 0::bigint as seq from webhook_secrets where account = ?
       union all
       select secret, 1, id from webhook_retired_secrets where account = ? and expires_at > now()
     ) signing order by rank, seq desc limit ?`,
    [account, account, maxSigning],
  );
  return (result.rows as { secret: string }[]).map((r) => r.secret);
}
