import { capabilityIndex, computeBuildHash } from "../../services/agents/capabilities.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ config }) => {
  const buildHash = config.buildHash ?? computeBuildHash();
  return {
    method: "GET",
    path: "/api/capabilities",
    options: { auth: false, tags: ["discovery"] },
    handler: () => capabilityIndex(buildHash),
  };
};
export default route;
