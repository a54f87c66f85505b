// Rows of the webhook tables: each tenant's signing secret, the secrets a rotation retired (still valid for a
// while), and the transactional outbox of messages the delivery worker sends.
import type { Schemas } from "../../types/contract.js";
import type { InsertOf, TableOf } from "./writes.js";

type Environment = Schemas["ApiKeyEnvironment"];

export interface WebhookSecretRow {
  account: string;
  environment: Environment;
  secret: string;
  created_at: Date;
}

export interface WebhookRetiredSecretRow {
  id: number;
  account: string;
  environment: Environment;
  secret: string;
  retired_at: Date;
  expires_at: Date;
}

export interface WebhookOutboxRow {
  id: number;
  message_id: string;
  order_id: string;
  account: string;
  environment: Environment;
  url: string;
  /** The order_events row the message delivers (null only for a message older than the reference that had none). */
  event_id: number | null;
  /** The base URL of the event's `status_url` when no PUBLIC_BASE_URL is set: the one the order was made on. */
  status_base_url: string;
  /** No longer written: the body sent is the event itself. Kept for messages queued before event_id. */
  payload: Record<string, unknown> | null;
  status: "pending" | "delivered" | "dead";
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  last_status_code: number | null;
  created_at: Date;
  delivered_at: Date | null;
}
type WebhookOutboxInsert = InsertOf<
  Omit<WebhookOutboxRow, "payload">,
  "id" | "status" | "attempts" | "next_attempt_at" | "last_error" | "last_status_code" | "created_at" | "delivered_at"
>;

declare module "knex/types/tables.js" {
  interface Tables {
    webhook_secrets: TableOf<WebhookSecretRow, InsertOf<WebhookSecretRow, "created_at">>;
    webhook_retired_secrets: TableOf<WebhookRetiredSecretRow, InsertOf<WebhookRetiredSecretRow, "id" | "retired_at">>;
    webhook_outbox: TableOf<WebhookOutboxRow, WebhookOutboxInsert>;
  }
}
