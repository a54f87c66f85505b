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

declare module "knex/types/tables.js" {
  interface Tables {
    api_keys: TableOf<ApiKeyRow, ApiKeyInsert>;
    oauth_clients: TableOf<OAuthClientRow, InsertOf<OAuthClientRow, "client_name" | "created_at">>;
    oauth_tokens: TableOf<OAuthTokenRow, InsertOf<OAuthTokenRow, "created_at">>;
  }
}
