// The capability registry: one list for the capability index, the agent card, MCP and A2A, from the operation
// table (server/generated/operations.ts), so no agent surface restates the contract.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../shared/ids.js";
import { contractVersion } from "../../contract-version.js";
import { operations, type Operation, type OperationName } from "../../generated/operations.js";
import { oauthTokenScopes } from "../access/principal.js";

// What the contract cannot say of each agent operation: its purpose, credential note and an example input.
const keyNote = "Needs `Authorization: Bearer <API_KEY>` (a provisioned key); other accounts' orders are not found.";

type Table = typeof operations;
type SkillOperation = { [K in OperationName]: Table[K]["a2aSkill"] extends null ? never : K }[OperationName];

interface AgentText {
  purpose: string;
  /** Appended to the MCP tool's description ("" for an operation without a tool). */
  tool_note: string;
  example: Readonly<Record<string, unknown>>;
}

/** One entry per skill operation, no more (tsc checks the keys against the contract's x-a2a-skill). */
const agentText = {
  probeStorefront: {
    purpose: "Free multi-surface readiness snapshot of a storefront; not an attested grade.",
    tool_note: "",
    example: { url: "shop.example.com" },
  },
  createQuote: {
    purpose: "Quote for a job: availability, estimated cost, ETA tier, validity.",
    tool_note:
      "Needs `Authorization: Bearer <API_KEY>` (a provisioned key) or a self-serve OAuth access token as Bearer.",
    example: { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" },
  },
  createEstimate: {
    purpose: "Public modeled price estimate from cited national wage statistics and disclosed model assumptions.",
    tool_note: "",
    example: { trade: "electrical", location: { state: "CA" } },
  },
  createOrder: {
    purpose: "Create a tracked work order; the contractor is auto-matched and returned as a masked reference.",
    tool_note:
      'Needs `Authorization: Bearer <API_KEY>` with the order scope. The order handle is `dispatch-{id}`. A credential that is not entitled to order (an OAuth token, a quote-only key) gets JSON-RPC error -32002 with the entitlement body (error, message, entitled_credential, provisioning_contact, free_alternatives) as error.data; the product spec assigns -32002 to this, although MCP 2025-06-18/2025-11-25 also use -32002 for resources/read "resource not found".',
    example: { trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Leaking water heater." },
  },
  getOrder: {
    purpose: "An order's lifecycle status and history (`id`: ord_… or the MCP handle dispatch-ord_…).",
    tool_note: keyNote,
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" },
  },
  cancelOrder: {
    purpose: "Cancel an order until the contractor is on site; a repeat answers the same cancelled order.",
    tool_note: keyNote,
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", reason: "duplicate" },
  },
  rescheduleOrder: {
    purpose:
      "Move an assigned order to another arrival window of its contractor until it is on site; asking for its own window again changes nothing.",
    tool_note: keyNote,
    example: {
      id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1",
      arrival_window: { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" },
    },
  },
  approvePriceRevision: {
    purpose:
      "Approve an order's pending price revision (`revision_id`: its price_revision.id): the order's NTE becomes the revision's amount; it spends the customer's money, so the tool asks for confirmation first.",
    tool_note: keyNote,
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", revision_id: "prv_01JD8XC0A2B4C6D8E0F2G4H6J8" },
  },
  declinePriceRevision: {
    purpose:
      "Decline an order's pending price revision: the order keeps its NTE (an order held over its NTE stays held).",
    tool_note: keyNote,
    example: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", revision_id: "prv_01JD8XC0A2B4C6D8E0F2G4H6J8" },
  },
  getEvals: {
    purpose: "Self-reported evaluation document for a rolling window; not an independent audit.",
    tool_note: "Public.",
    example: { period: "rolling_30d" },
  },
  getTradeIndex: {
    purpose: "Catalog of 8 trade verticals with wage and billed-rate figures.",
    tool_note: "Public.",
    example: {},
  },
} as const satisfies Record<SkillOperation, AgentText>;

/** Who may call an operation, as agents are told: anyone, a key, or a key or an OAuth token with the scopes. */
export type CapabilityAccess = "public" | "key" | "key_or_token";
function accessOf(operation: Operation): CapabilityAccess {
  if (!Object.keys(operation.schemes).length) return "public";
  const tokenNeeds = operation.schemes.OAuthToken;
  return tokenNeeds?.every((scope) => oauthTokenScopes.includes(scope)) ? "key_or_token" : "key";
}

/** One capability: its operation's skill, tool and REST twin from the table, with the text above. */
type CapabilityOf<K extends SkillOperation> = {
  id: NonNullable<Table[K]["a2aSkill"]>["id"];
  name: string;
  operationId: K;
  mcp_tool: Table[K]["mcpTool"];
  annotations: Table[K]["mcpAnnotations"];
  /** x-mcp-confirm: the tool and skill preview and ask for a confirmation token before they act. */
  confirm: boolean;
  access: CapabilityAccess;
  rest: { method: string; path: string; operationId: K };
} & (typeof agentText)[K];
export type Capability = { [K in SkillOperation]: CapabilityOf<K> }[SkillOperation];

function capabilityOf(operationId: SkillOperation): Capability {
  const operation: Operation = operations[operationId];
  return {
    id: operation.a2aSkill!.id,
    name: operation.a2aSkill!.name,
    ...agentText[operationId],
    operationId,
    mcp_tool: operation.mcpTool,
    annotations: operation.mcpAnnotations,
    confirm: operation.mcpConfirm,
    access: accessOf(operation),
    rest: { method: operation.method, path: operation.path, operationId },
  } as Capability; // the table entry of `operationId` is the one CapabilityOf reads its types from
}

export const capabilities: readonly Capability[] = (Object.keys(operations) as OperationName[])
  .filter((operationId): operationId is SkillOperation => operations[operationId].a2aSkill !== null)
  .map(capabilityOf);

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
      rest: { ...c.rest, operation_id: c.rest.operationId }, // operationId: the deprecated twin (openapi.yaml)
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
