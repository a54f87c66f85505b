// The six capabilities, their REST operations and MCP tools: one list for the index, agent card, MCP and A2A.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../shared/ids.js";
import { contractVersion } from "../../contract-version.js";

export const capabilities = [
  {
    id: "agentic.readiness_probe",
    purpose: "Free multi-surface readiness snapshot of a storefront; not an attested grade.",
    access: "public",
    rest: { method: "POST", path: "/api/agentic-commerce/probe", operationId: "probeStorefront" },
    mcp_tool: null,
  },
  {
    id: "dispatch.quote",
    purpose: "Quote for a job: availability, estimated cost, ETA tier, validity.",
    access: "key_or_token",
    rest: { method: "POST", path: "/api/dispatch/v1/quote", operationId: "createQuote" },
    mcp_tool: "dispatch.quote",
  },
  {
    id: "dispatch.estimate",
    purpose: "Public modeled price estimate from cited national wage statistics and disclosed model assumptions.",
    access: "public",
    rest: { method: "POST", path: "/api/dispatch/v1/estimate", operationId: "createEstimate" },
    mcp_tool: null,
  },
  {
    id: "dispatch.order",
    purpose: "Create a tracked work order; the contractor is auto-matched and returned as a masked reference.",
    access: "key",
    rest: { method: "POST", path: "/api/dispatch/v1/order", operationId: "createOrder" },
    mcp_tool: "dispatch.order",
  },
  {
    id: "dispatch.evals",
    purpose: "Self-reported evaluation document for a rolling window; not an independent audit.",
    access: "public",
    rest: { method: "GET", path: "/api/dispatch/analytics/evals", operationId: "getEvals" },
    mcp_tool: "dispatch.evals",
  },
  {
    id: "dispatch.index",
    purpose: "Catalog of 8 trade verticals with wage and billed-rate figures.",
    access: "public",
    rest: { method: "GET", path: "/api/dispatch/index", operationId: "getTradeIndex" },
    mcp_tool: "dispatch.index",
  },
] as const;

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
    capabilities: capabilities.map((c) => ({ ...c, rest: { ...c.rest } })),
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
