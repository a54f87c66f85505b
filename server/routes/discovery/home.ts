// GET /: where to start, for a person or a client that opens the server's root (the reference, the contract, the
// agents' entry points, the guides). The paths are the contract's own, read from the operation table.
import { contractVersion } from "../../contract-version.js";
import { operations } from "../../generated/operations.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const pathOf = (operationId: keyof typeof operations) => operations[operationId].path;

const links = {
  docs: pathOf("getDocs"),
  openapi_json: pathOf("getOpenApiJson"),
  openapi_yaml: pathOf("getOpenApiYaml"),
  capabilities: pathOf("getCapabilityIndex"),
  agent_card: pathOf("getAgentCard"),
  mcp: pathOf("callMcp"),
  a2a: pathOf("callA2a"),
  trade_index: pathOf("getTradeIndex"),
  health: pathOf("getHealth"),
};

/** The guides are in the repository (README.md lists them), not served here: the CLI's --help names the same folder. */
const guides = "docs/";

const home = {
  service: "dispatch",
  contract_version: contractVersion,
  message: `The API reference is at ${links.docs} and this contract at ${links.openapi_json}; agents start at ${links.capabilities}; the guides are in ${guides} of the dispatch repository.`,
  guides,
  links,
};

const route: RouteFactory = () =>
  operationRoute("getHome", { handler: (_request, h) => reply(h, "getHome", 200, home) });
export default route;
