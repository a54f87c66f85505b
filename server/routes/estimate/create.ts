import { validators } from "../../generated/validators.js";
import { estimate } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = () => ({
  method: "POST",
  path: "/api/dispatch/v1/estimate",
  options: {
    auth: false,
    tags: ["estimate"],
    validate: validators.createEstimate,
  },
  handler: (request) => estimate(request.payload as Parameters<typeof estimate>[0]),
});
export default route;
