// Rows of the access tables: API keys (hash only), self-serve OAuth clients and their access tokens.
import type { KeyScope } from "../../generated/operations.js";
import type { Schemas } from "../../types/contract.js";
import type { InsertOf, TableOf } from "./writes.js";

export interface ApiKeyRow {
  id: string;
  account: string;
  environment: Schemas["ApiKeyEnvironment"];
  prefix: string;
  key_hash: string;
  label: string | null;
  scopes: KeyScope[];
  created_at: Date;
  revoked_at: Date | null;
  /** A contractor key's contractor (its account is then this id); null for a customer key. */
  contractor_id: string | null;
}
/** jsonb `scopes` is written as JSON text: node-postgres would send an array as a Postgres array. */
type ApiKeyInsert = InsertOf<
  Omit<ApiKeyRow, "scopes"> & { scopes: string },
  "label" | "created_at" | "revoked_at" | "contractor_id"
>;

export interface OAuthClientRow {
  client_id: string;
  secret_hash: string;
  client_name: string | null;
  scope: string;
  created_at: Date;
  expires_at: Date;
}

export interface OAuthTokenRow {
  token_hash: string;
  client_id: string;
  scope: string;
  created_at: Date;
  expires_at: Date;
}

/** A confirmation token of an agent tool that asks before it acts (hash only), bound to key, capability and
 * arguments; `used_at` set once it has been spent. */
export interface AgentConfirmationRow {
  token_hash: string;
  caller_id: string;
  account: string;
  environment: Schemas["ApiKeyEnvironment"];
  capability: string;
  arguments_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

declare module "knex/types/tables.js" {
  interface Tables {
    api_keys: TableOf<ApiKeyRow, ApiKeyInsert>;
    oauth_clients: TableOf<OAuthClientRow, InsertOf<OAuthClientRow, "client_name" | "created_at">>;
    oauth_tokens: TableOf<OAuthTokenRow, InsertOf<OAuthTokenRow, "created_at">>;
    agent_confirmations: TableOf<AgentConfirmationRow, InsertOf<AgentConfirmationRow, "used_at">>;
  }
}
