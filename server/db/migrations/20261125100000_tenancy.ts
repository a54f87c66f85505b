// Test and live are two data planes: every tenant-owned row carries the environment of the key that made it,
// idempotency keys and reference ids are unique per (account, environment), and each environment has its own
// webhook signing secret. Keys gain the scopes the contract names (an `order` key of before keeps every
// operation it could call).
import type { Knex } from "knex";

/** Orders, outbox rows and quotes take their environment from the key that made them (quotes by OAuth: none). */
async function addOrderEnvironment(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => t.string("environment", 8));
  await db.raw("update orders o set environment = k.environment from api_keys k where k.id = o.key_id");
  await db.raw("update orders set environment = 'live' where environment is null");
  await db.schema.alterTable("orders", (t) => {
    t.string("environment", 8).notNullable().alter();
    t.dropUnique(["account", "reference_id"]);
    t.dropUnique(["account", "idempotency_key"]);
    t.unique(["account", "environment", "reference_id"]);
    t.unique(["account", "environment", "idempotency_key"]);
    t.dropIndex(["account", "created_at", "id"], "orders_account_created_idx");
    t.index(["account", "environment", "created_at", "id"], "orders_tenant_created_idx");
  });
  await db.schema.alterTable("quotes", (t) => t.string("environment", 8)); // null with account: an OAuth quote
  await db.raw("update quotes q set environment = k.environment from api_keys k where k.id = q.principal");
  await db.schema.alterTable("webhook_outbox", (t) => t.string("environment", 8));
  await db.raw("update webhook_outbox w set environment = o.environment from orders o where o.id = w.order_id");
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.string("environment", 8).notNullable().alter();
    t.dropIndex(["account", "created_at", "id"], "webhook_outbox_account_created_idx");
    t.index(["account", "environment", "created_at", "id"], "webhook_outbox_tenant_created_idx");
  });
}

/** The secret that signed an account's webhooks so far stays live's (receivers hold it); test gets a new one. */
async function splitSecrets(db: Knex): Promise<void> {
  for (const table of ["webhook_secrets", "webhook_retired_secrets"]) {
    await db.schema.alterTable(table, (t) => t.string("environment", 8).notNullable().defaultTo("live"));
    await db.raw(`alter table ${table} alter column environment drop default`);
  }
  await db.schema.alterTable("webhook_secrets", (t) => {
    t.dropPrimary();
    t.primary(["account", "environment"]);
  });
}

/**
 * Audit records get an environment for listing (not part of the sealed leaf, so seals are unchanged). The trail
 * refuses UPDATE, so the backfill of the records already written runs with its guard trigger off, in this
 * migration's transaction only.
 */
async function tagAuditRecords(db: Knex): Promise<void> {
  await db.schema.alterTable("audit_records", (t) => t.string("environment", 8));
  await db.raw("alter table audit_records disable trigger audit_records_no_change");
  await db.raw(`update audit_records r set environment = coalesce(
      (select environment from orders where id = r.subject),
      (select environment from quotes where id = r.subject),
      (select environment from api_keys where id = r.subject))
    where r.account is not null`);
  await db.raw("alter table audit_records enable trigger audit_records_no_change");
  await db.schema.alterTable("audit_records", (t) => {
    t.index(["account", "environment", "position"], "audit_records_tenant_idx");
  });
}

/** `order` used to grant every keyed operation; the scopes that now name them separately are added to it. */
async function widenScopes(db: Knex): Promise<void> {
  await db.raw(`update api_keys set scopes = scopes || '["orders:read","webhooks","audit"]'::jsonb
    where scopes @> '["order"]'::jsonb`);
}

export async function up(db: Knex): Promise<void> {
  await addOrderEnvironment(db);
  await splitSecrets(db);
  await tagAuditRecords(db);
  await widenScopes(db);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`update api_keys set scopes = scopes - 'orders:read' - 'webhooks' - 'audit'`);
  await db.schema.alterTable("audit_records", (t) => {
    t.dropIndex(["account", "environment", "position"], "audit_records_tenant_idx");
    t.dropColumn("environment");
  });
  await db.raw("delete from webhook_secrets where environment <> 'live'");
  await db.schema.alterTable("webhook_secrets", (t) => {
    t.dropPrimary();
    t.primary(["account"]);
  });
  for (const table of ["webhook_secrets", "webhook_retired_secrets", "quotes"])
    await db.schema.alterTable(table, (t) => t.dropColumn("environment"));
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.dropIndex(["account", "environment", "created_at", "id"], "webhook_outbox_tenant_created_idx");
    t.index(["account", "created_at", "id"], "webhook_outbox_account_created_idx");
    t.dropColumn("environment");
  });
  await db.schema.alterTable("orders", (t) => {
    t.dropUnique(["account", "environment", "reference_id"]);
    t.dropUnique(["account", "environment", "idempotency_key"]);
    t.unique(["account", "reference_id"]);
    t.unique(["account", "idempotency_key"]);
    t.dropIndex(["account", "environment", "created_at", "id"], "orders_tenant_created_idx");
    t.index(["account", "created_at", "id"], "orders_account_created_idx");
    t.dropColumn("environment");
  });
}
