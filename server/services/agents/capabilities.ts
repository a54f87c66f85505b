// The capability registry: one list for the capability index, the agent card, MCP and A2A. Each capability names
// the contract operation it runs; its REST method and path and who may call it come from the operation table
// (server/generated/operations.ts), so no agent surface restates what the contract says.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../shared/ids.js";
import { contractVersion } from "../../contract-version.js";
import { operations, type Operation, type OperationName } from "../../generated/operations.js";
import { oauthTokenScopes } from "../access/principal.js";

// Per capability: REST operation, MCP tool (with its hints and note) and A2A skill (name, example). The agent
// card, the MCP tools, the A2A skills and the capability index all read this one list, so no surface can offer a
// capability another lacks.
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const keyNote = "Needs `Authorization: Bearer <API_KEY>` (a provisioned key); other accounts' orders are not found.";

const agentCapabilities = [
  {
    id: "agentic.readiness_probe",
    name: "Readiness probe",
    purpose: "Free multi-surface readiness snapshot of a storefront; not an attested grade.",
    operationId: "probeStorefront",
    mcp_tool: null,
    tool_note: "",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    example: { url: "shop.example.com" },
  },
  {
    id: "dispatch.quote",
    name: "Quote",
    purpose: "Quote for a job: availability, estimated cost, ETA tier, validity.",
    operationId: "createQuote",
    mcp_tool: "dispatch.quote",
    tool_note:
      "Needs `Authorization: Bearer <API_KEY>` (a provisioned key) or a self-serve OAuth access token as Bearer.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    example: { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" },
  },
  {
    id: "dispatch.estimate",
    name: "Estimate",
    purpose: "Public modeled price estimate from cited national wage statistics and disclosed model assumptions.",
    operationId: "createEstimate",
    mcp_tool: null,
    tool_note: "",
    annotations: readOnly,
    example: { trade: "electrical", location: { state: "CA" } },
  },
  {
    id: "dispatch.order",
    name: "Order",
    purpose: "Create a tracked work order; the contractor is auto-matched and returned as a masked reference.",
    operationId: "createOrder",
    mcp_tool: "dispatch.order",
    tool_note:
      'Needs `Authorization: Bearer <API_KEY>` with the order scope. The order handle is `dispatch-{id}`. A credential that is not entitled to order (an OAuth token, a quote-only key) gets JSON-RPC error -32002 with the entitlement body (error, message, entitled_credential, provisioning_contact, free_alternatives) as error.data; the product spec assigns -32002 to this, although MCP 2025-06-18/2025-11-25 also use -32002 for resources/read "resource not found".',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    example: { trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Leaking water heater." },
  },
  {
    id: "dispatch.order_status",
    name: "Order status",
    purpose: "An order's lifecycle status and history (`id`: ord_… or the MCP handle dispatch-ord_…).",
    operationId: "getOrder",
    mcp_tool: "dispatch.order_status",
    tool_note: keyNote,
    annotations: readOnly,
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" },
  },
  {
    id: "dispatch.cancel_order",
    name: "Cancel order",
    purpose: "Cancel an order until the contractor is on site; a repeat answers the same cancelled order.",
    operationId: "cancelOrder",
    mcp_tool: "dispatch.cancel_order",
    tool_note: keyNote,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", reason: "duplicate" },
  },
  {
    id: "dispatch.evals",
    name: "Evals",
    purpose: "Self-reported evaluation document for a rolling window; not an independent audit.",
    operationId: "getEvals",
    mcp_tool: "dispatch.evals",
    tool_note: "Public.",
    annotations: readOnly,
    example: { period: "rolling_30d" },
  },
  {
    id: "dispatch.index",
    name: "Trade index",
    purpose: "Catalog of 8 trade verticals with wage and billed-rate figures.",
    operationId: "getTradeIndex",
    mcp_tool: "dispatch.index",
    tool_note: "Public.",
    annotations: readOnly,
    example: {},
  },
] as const;

/** Who may call an operation, as agents are told: anyone, a key, or a key or an OAuth token (when the token's
 * scopes cover the operation's requirement; createOrder lists the token scheme only to answer it 402). */
export type CapabilityAccess = "public" | "key" | "key_or_token";
function accessOf(operation: Operation): CapabilityAccess {
  if (!Object.keys(operation.schemes).length) return "public";
  const tokenNeeds = operation.schemes.OAuthToken;
  return tokenNeeds?.every((scope) => oauthTokenScopes.includes(scope)) ? "key_or_token" : "key";
}

type WithOperation<C> = C extends { operationId: OperationName }
  ? C & { access: CapabilityAccess; rest: { method: string; path: string; operationId: C["operationId"] } }
  : never;
type WithOperations<T extends readonly unknown[]> = { readonly [K in keyof T]: WithOperation<T[K]> };

/** Every capability with its operation's REST method, path and access, from the operation table. */
export const capabilities = agentCapabilities.map((capability) => {
  const operation: Operation = operations[capability.operationId];
  return {
    ...capability,
    access: accessOf(operation),
    rest: { method: operation.method, path: operation.path, operationId: capability.operationId },
  };
}) as unknown as WithOperations<typeof agentCapabilities>;

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Git commit of the running tree, or a hash of the contract and lockfile when git is unavailable. */
export function computeBuildHash(): string {
  try {
    return execSync("git rev-parse --short=12 HEAD", { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    const material = ["openapi.yaml", "package-lock.json"].map((f) => readFileSync(root + f, "utf8")).join("\n");
    return `sha256:${sha256Hex(material).slice(0, 16)}`;
  }
}

export function capabilityIndex(buildHash: string) {
  return {
    schema_version: 2 as const,
    generated_at: new Date().toISOString(),
    build_hash: buildHash,
    service: "dispatch",
    contract_version: contractVersion,
    capabilities: capabilities.map((c) => ({
      id: c.id,
      purpose: c.purpose,
      access: c.access,
      rest: { ...c.rest },
      mcp_tool: c.mcp_tool,
    })),
    endpoints: {
      openapi_json: "/openapi.json",
      openapi_yaml: "/openapi.yaml",
      agent_card: "/.well-known/agent-card.json",
      mcp: "/api/mcp",
      a2a: "/api/a2a",
      capabilities: "/api/capabilities",
    },
  };
}
