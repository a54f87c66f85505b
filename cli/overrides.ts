// Per-operation tweaks to the generated command table that the contract cannot express.

export interface CommandOverride {
  /** Body flags taken as positional arguments instead (`dispatch probe <url>`). */
  positional?: readonly string[];
  /** Body fields filled in when neither --data nor a flag sets them. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Flags whose value is parsed as JSON. */
  json?: readonly string[];
  /** Built by a hand-written command instead (cli/commands/mcp.ts). */
  custom?: boolean;
}

export const overrides: Readonly<Record<string, CommandOverride>> = {
  probeStorefront: { positional: ["url"] },
  createOAuthToken: { defaults: { grant_type: "client_credentials" } },
  callA2a: { defaults: { jsonrpc: "2.0", id: 1 }, json: ["params"] },
  callMcp: { custom: true },
};

export const overrideFor = (operationId: string): CommandOverride => overrides[operationId] ?? {};
