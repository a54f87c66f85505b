// The A2A agent card: built as the SDK's AgentCard type (so tsc checks it against A2A v1.0) from the
// capability registry, and served in its JSON form.
import { A2A_PROTOCOL_VERSION, AgentCard, type AgentSkill, type SecurityRequirement } from "@a2a-js/sdk";
import { capabilities } from "./capabilities.js";
import { contractVersion } from "../../contract-version.js";

const accessNotes = {
  public: "Public.",
  key: "Needs a provisioned key in x-api-key.",
  key_or_token: "Needs x-api-key, or a self-serve OAuth access token as Authorization: Bearer.",
};

const requirement = (scheme: string): SecurityRequirement => ({ schemes: { [scheme]: { list: [] } } });
const requirementsFor = {
  public: [],
  key: [requirement("apiKey")],
  key_or_token: [requirement("apiKey"), requirement("oauthToken")],
};

const confirmNote =
  ' Asks before it acts: the task first ends input-required with a preview and a confirmation_token; answer that task with a data part {"confirmation_token": …} to act.';

function skills(): AgentSkill[] {
  return capabilities.map((c) => ({
    id: c.id,
    name: c.name,
    description: `${c.purpose} ${accessNotes[c.access]} Send a data part {"skill": "${c.id}", "input": {…}}; input is the ${c.rest.operationId} request of /openapi.json.${c.confirm ? confirmNote : ""}`,
    tags: [c.id.split(".")[0], c.access, ...(c.mcp_tool ? ["mcp"] : [])],
    examples: [JSON.stringify({ skill: c.id, input: c.example })],
    inputModes: ["application/json"],
    outputModes: ["application/json"],
    securityRequirements: requirementsFor[c.access],
  }));
}

/** x-api-key for provisioned keys; OAuth client credentials (self-serve, quote-only) for tokens. */
function securitySchemes(base: string): AgentCard["securitySchemes"] {
  return {
    apiKey: {
      scheme: {
        $case: "apiKeySecurityScheme",
        value: { description: "Provisioned integration key.", location: "header", name: "x-api-key" },
      },
    },
    oauthToken: {
      scheme: {
        $case: "oauth2SecurityScheme",
        value: {
          description:
            "Self-serve client credentials (register at /api/mcp/oauth/register); tokens are valid for dispatch.quote only.",
          flows: {
            flow: {
              $case: "clientCredentials",
              value: {
                tokenUrl: `${base}/api/mcp/oauth/token`,
                refreshUrl: "",
                scopes: { "dispatch.quote": "Quote jobs." },
              },
            },
          },
          oauth2MetadataUrl: "",
        },
      },
    },
  };
}

/** The card for a deployment whose public base URL is `base` (no trailing slash). */
export function buildAgentCard(base: string): AgentCard {
  return {
    name: "Field-Service Dispatch",
    description:
      "Quotes, estimates and orders field-service work (plumbing, electrical, HVAC …) from a matched contractor pool. All published figures are self-reported.",
    version: contractVersion,
    supportedInterfaces: [
      { url: `${base}/api/a2a`, protocolBinding: "JSONRPC", protocolVersion: A2A_PROTOCOL_VERSION, tenant: "" },
    ],
    provider: { organization: "Dispatch", url: base },
    documentationUrl: `${base}/openapi.json`,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    securitySchemes: securitySchemes(base),
    securityRequirements: [],
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: skills(),
    signatures: [],
  };
}

/** The card's JSON wire form (A2A v1.0 field names, empty fields left out). */
export function agentCardJson(base: string): unknown {
  return AgentCard.toJSON(buildAgentCard(base));
}
