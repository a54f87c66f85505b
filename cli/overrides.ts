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
  /**
   * Shell words the `--help` examples use for these flags (path, required query, or body values the reader must
   * bring): every example runs as printed, given the variables it names (test/cli/help-examples.test.ts).
   */
  exampleArgs?: Readonly<Record<string, string>>;
}

const orderId = { id: '"$ORDER_ID"' };

export const overrides: Readonly<Record<string, CommandOverride>> = {
  probeStorefront: { positional: ["url"] },
  createOAuthToken: {
    defaults: { grant_type: "client_credentials" },
    exampleArgs: { "client-id": '"$CLIENT_ID"', "client-secret": '"$CLIENT_SECRET"' },
  },
  getOrder: { exampleArgs: orderId },
  listOrderEvents: { exampleArgs: orderId },
  cancelOrder: { exampleArgs: orderId },
  rescheduleOrder: { exampleArgs: { ...orderId, start: '"$WINDOW_START"', end: '"$WINDOW_END"' } },
  advanceSandboxOrder: { exampleArgs: orderId },
  recordOrderEvent: { exampleArgs: orderId },
  redeliverWebhookDelivery: { exampleArgs: { id: '"$DELIVERY_ID"' } },
  verifySeal: { exampleArgs: { seal: '"$SEAL"' } },
  getConsistencyProof: { exampleArgs: { first: "1", second: "2" } },
  revokeApiKey: { exampleArgs: { id: '"$KEY_ID"' } },
  updateContractor: { exampleArgs: { id: '"$CONTRACTOR_ID"' } },
  createContractorKey: { exampleArgs: { id: '"$CONTRACTOR_ID"' } },
  acceptOffer: { exampleArgs: { id: '"$OFFER_ID"' } },
  declineOffer: { exampleArgs: { id: '"$OFFER_ID"' } },
  getWebhookSecret: { exampleArgs: { account: "acme" } },
  callA2a: { defaults: { jsonrpc: "2.0", id: 1 }, json: ["params"] },
  callMcp: { custom: true },
};

export const overrideFor = (operationId: string): CommandOverride => overrides[operationId] ?? {};
