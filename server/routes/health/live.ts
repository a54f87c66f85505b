import type { RouteFactory } from "../types.js";
import { contractVersion } from "../../contract-version.js";

const route: RouteFactory = () => ({
  method: "GET",
  path: "/healthz",
  options: { auth: false, tags: ["health"] },
  handler: () => ({ status: "ok", version: contractVersion }),
});
export default route;
