import { capabilityIndex, computeBuildHash } from "../../services/agents/capabilities.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ config }) => {
  let buildHash = config.buildHash; // else asked of git on first request, not at start (a process spawn)
  return {
    method: "GET",
    path: "/api/capabilities",
    options: { auth: false, tags: ["discovery"] },
    handler: () => capabilityIndex((buildHash ??= computeBuildHash())),
  };
};
export default route;
