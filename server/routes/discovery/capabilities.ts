import { capabilityIndex, computeBuildHash } from "../../services/agents/capabilities.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ config }) => {
  let buildHash = config.buildHash; // else asked of git on first request, not at start (a process spawn)
  return operationRoute("getCapabilityIndex", {
    handler: () => capabilityIndex((buildHash ??= computeBuildHash())),
  });
};
export default route;
