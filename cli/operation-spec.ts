// Shape of the command table that `npm run generate` writes to cli/generated/operations.ts.

export type FlagType = "string" | "integer" | "number" | "boolean" | "array";

export interface FlagSpec {
  /** Long flag name without dashes, e.g. `nte-cents`. */
  flag: string;
  /** Where the value goes: a path into the JSON body, or a path/query/header parameter name. */
  in: "body" | "path" | "query" | "header";
  /** Property path inside the body (for `in: "body"`), or the parameter name. */
  target: string[];
  type: FlagType;
  required: boolean;
  description: string;
  enum?: readonly string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  /** ECMAScript pattern, matched with the `u` flag (as JSON Schema validators do). */
  pattern?: string;
  /** What the pattern means in words (`x-pattern-description`), said instead of the expression. */
  patternDescription?: string;
  minLength?: number;
  maxLength?: number;
}

/** One column of a list's table (`x-cli-table`): its header, the dotted path into each item, how it is shown. */
export interface ColumnSpec {
  header: string;
  path: string;
  /** `usd`: cents as dollars; `time`: an instant in the row's zone; `window`: an arrival window; `place`: a
   * location's city, state and ZIP; `street`: its address and site name; `revision`: a price revision's outcome;
   * `list`: a list joined; none: the value as text. */
  format?: "usd" | "time" | "window" | "place" | "street" | "revision" | "list";
}

/** The columns a list command's table leads with (`x-cli-table`); `-o json`/`-o yaml` print every field. */
export interface TableSpec {
  /** Dotted path to each item's IANA time zone, in which its times are shown. */
  zone?: string;
  columns: readonly ColumnSpec[];
}

export interface OperationSpec {
  operationId: string;
  /** Command words, e.g. `["orders", "get"]`. */
  command: readonly string[];
  method: "get" | "put" | "post" | "delete" | "patch";
  path: string;
  summary: string;
  description: string;
  /** Credential kinds the operation accepts (security scheme names); empty when public. */
  security: readonly string[];
  bodyContentType: string | null;
  bodyRequired: boolean;
  flags: readonly FlagSpec[];
  /** A request body example from the contract, used in `--help`. */
  example: unknown;
  responses: readonly string[];
  /** The columns of its table, when the contract chooses them. */
  table?: TableSpec;
}
