// Per-operation tweaks to the generated command table that the contract cannot express.
import type { IntervalFlag } from "./interval.js";

export interface CommandOverride {
  /** Body flags taken as positional arguments instead (`dispatch probe <url>`). */
  positional?: readonly string[];
  /** Body fields filled in when neither --data nor a flag sets them. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Flags whose value is parsed as JSON. */
  json?: readonly string[];
  /** Built by a hand-written command instead (cli/commands/mcp.ts). */
  custom?: boolean;
  /** One flag for two date-time body flags, as an ISO 8601 interval (cli/interval.ts). */
  interval?: IntervalFlag;
  /**
   * Shell words the `--help` examples use for these flags (path, required query, or body values the reader must
   * bring): every example runs as printed, given the variables it names (test/cli/help-examples.test.ts).
   */
  exampleArgs?: Readonly<Record<string, string>>;
}

const orderId = { id: '"$ORDER_ID"' };

/**
 * A window the contract's example job (createOrder's: plumbing in TX) can book, from a quote made in the same line,
 * so an example needs nothing set beforehand: `query` is a JMESPath from the quote, shell-quoted (a bound, or
 * START/END). An urgent quote's windows are within the horizon of every order but an emergency's.
 */
const quotedWindow = (query: string, urgency = "") =>
  `"$(dispatch quote --trade plumbing --state TX${urgency && ` --urgency ${urgency}`} --query ${query})"`;
const laterWindow = {
  start: quotedWindow("'arrival_windows[-1].start'", "urgent"),
  end: quotedWindow("'arrival_windows[-1].end'", "urgent"),
  window: quotedWindow(`"arrival_windows[-1].[start, end] | join('/', @)"`, "urgent"),
};

/** A window the held job "$JOB_ID" can move to (`dispatch jobs windows`), picked by `query` as quotedWindow does. */
const jobWindow = (query: string) => `"$(dispatch jobs windows "$JOB_ID" --query ${query})"`;

/** A quote's `arrival_windows` START (or START/END), for `--start` and `--end` of the arrival window. */
const window: IntervalFlag = {
  flag: "window",
  start: "start",
  end: "end",
  hours: 2,
  description: "Arrival window (one that 'dispatch quote' lists)",
};

export const overrides: Readonly<Record<string, CommandOverride>> = {
  probeStorefront: { positional: ["url"] },
  createOAuthToken: {
    defaults: { grant_type: "client_credentials" },
    exampleArgs: { "client-id": '"$CLIENT_ID"', "client-secret": '"$CLIENT_SECRET"' },
  },
  getOrder: { exampleArgs: orderId },
  listOrderEvents: { exampleArgs: orderId },
  cancelOrder: { exampleArgs: orderId },
  createOrder: { interval: window, exampleArgs: { window: quotedWindow("'arrival_windows[0].start'") } },
  rescheduleOrder: { interval: window, exampleArgs: { ...orderId, ...laterWindow } },
  advanceSandboxOrder: { exampleArgs: orderId },
  advanceSandboxClock: { positional: ["by"] },
  recordOrderEvent: { exampleArgs: orderId },
  redeliverWebhookDelivery: { exampleArgs: { id: '"$DELIVERY_ID"' } },
  verifySeal: { exampleArgs: { seal: '"$SEAL"' } },
  getConsistencyProof: { exampleArgs: { first: "1", second: "2" } },
  revokeApiKey: { exampleArgs: { id: '"$KEY_ID"' } },
  updateContractor: { exampleArgs: { id: '"$CONTRACTOR_ID"' } },
  createContractorKey: { exampleArgs: { id: '"$CONTRACTOR_ID"' } },
  acceptOffer: { exampleArgs: { id: '"$OFFER_ID"' } },
  declineOffer: { exampleArgs: { id: '"$OFFER_ID"' } },
  updateJobStatus: { exampleArgs: { id: '"$JOB_ID"', "estimated-arrival-at": '"$ETA"' } },
  requestPriceRevision: { exampleArgs: { id: '"$JOB_ID"' } },
  listJobWindows: { exampleArgs: { id: '"$JOB_ID"' } },
  // A contractor key cannot quote: the job's own open windows (`jobs windows`) give the window, in the same line.
  rescheduleJob: {
    interval: window,
    exampleArgs: {
      id: '"$JOB_ID"',
      start: jobWindow("'windows[-1].start'"),
      end: jobWindow("'windows[-1].end'"),
      window: jobWindow(`"windows[-1].[start, end] | join('/', @)"`),
    },
  },
  approvePriceRevision: { exampleArgs: { ...orderId, "revision-id": '"$REVISION_ID"' } },
  declinePriceRevision: { exampleArgs: { ...orderId, "revision-id": '"$REVISION_ID"' } },
  getWebhookSecret: { exampleArgs: { account: "acme" } },
  callA2a: { defaults: { jsonrpc: "2.0", id: 1 }, json: ["params"] },
  callMcp: { custom: true },
};

export const overrideFor = (operationId: string): CommandOverride => overrides[operationId] ?? {};
