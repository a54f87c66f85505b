// Webhook signing secrets: one current secret per tenant (an account's test and live sign with different secrets)
// and, after rotations, the replaced ones that still sign.
import type { Knex } from "knex";
import { randomBytes } from "node:crypto";
import type { Environment, Tenant } from "../access/principal.js";
import { rawQuery } from "../../db/raw.js";

type Conn = Knex | Knex.Transaction;

/** How long a replaced secret keeps signing beside the new one. */
const overlapHours = 24;
/** Secrets that sign at once: the current one and the newest replaced ones (keeps webhook-signature short). */
const maxSigning = 4;

export interface WebhookSecret {
  account: string;
  environment: Environment;
  secret: string;
  created_at: string;
}

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`; // Standard Webhooks: base64 of 24 bytes
const viewOf = (row: Tenant & { secret: string; created_at: Date }): WebhookSecret => ({
  account: row.account,
  environment: row.environment,
  secret: row.secret,
  created_at: new Date(row.created_at).toISOString(),
});

/** An INSERT giving each tenant without a signing secret a new one (usable as a CTE of a larger statement). */
export function insertMissingSecrets(db: Conn, tenants: Tenant[]) {
  return db("webhook_secrets")
    .insert(tenants.map((tenant) => ({ ...tenant, secret: newSecret() })))
    .onConflict(["account", "environment"])
    .ignore();
}

export async function ensureWebhookSecret(db: Conn, tenant: Tenant): Promise<WebhookSecret> {
  await insertMissingSecrets(db, [tenant]);
  return viewOf((await db("webhook_secrets").where(tenant).first())!); // there is one now, old or new
}

/** Keeps the newest replaced secrets that may still sign and drops the rest. */
async function pruneRetired(trx: Knex.Transaction, tenant: Tenant): Promise<void> {
  const newest = trx("webhook_retired_secrets")
    .select("id")
    .where(tenant)
    .orderBy("id", "desc")
    .limit(maxSigning - 1);
  await trx("webhook_retired_secrets")
    .where(tenant)
    .andWhere((q) => {
      void q.where("expires_at", "<=", trx.fn.now()).orWhereNotIn("id", newest);
    })
    .delete();
}

/** rotateWebhookSecret: a new current secret; the one it replaces signs until `previous_expires_at`. */
export function rotateWebhookSecret(db: Knex, tenant: Tenant) {
  return db.transaction(async (trx) => {
    const [first] = await trx("webhook_secrets")
      .insert({ ...tenant, secret: newSecret() })
      .onConflict(["account", "environment"])
      .ignore()
      .returning("*");
    if (first) return { ...viewOf(first), previous_expires_at: null };
    // The insert was ignored, so the current secret exists; locking it serializes rotations.
    const current = (await trx("webhook_secrets").where(tenant).forUpdate().first("secret"))!;
    const [retired] = await trx("webhook_retired_secrets")
      .insert({ ...tenant, secret: current.secret, expires_at: trx.raw(`now() + interval '${overlapHours} hours'`) })
      .returning("expires_at");
    const [rotated] = await trx("webhook_secrets")
      .where(tenant)
      .update({ secret: newSecret(), created_at: trx.fn.now() })
      .returning("*");
    await pruneRetired(trx, tenant);
    return { ...viewOf(rotated), previous_expires_at: new Date(retired.expires_at).toISOString() };
  });
}

/** Every secret that signs the tenant's webhooks now: the current one first, then unexpired replaced ones. */
export async function signingSecrets(db: Conn, tenant: Tenant): Promise<string[]> {
  const result = await rawQuery<{ secret: string }>(
    db,
    `select secret from (
       select secret, 0 as rank, 0::bigint as seq from webhook_secrets where account = ? and environment = ?
       union all
       select secret, 1, id from webhook_retired_secrets where account = ? and environment = ? and expires_at > now()
     ) signing order by rank, seq desc limit ?`,
    [tenant.account, tenant.environment, tenant.account, tenant.environment, maxSigning],
  );
  return result.rows.map((r) => r.secret);
}
