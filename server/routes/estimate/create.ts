import { validators } from "../../generated/validators.js";
import { estimate } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";
import { contractRoute } from "../contract-route.js";

const route: RouteFactory = () =>
  contractRoute("createEstimate", {
    method: "POST",
    path: "/api/dispatch/v1/estimate",
    options: {
      auth: false,
      tags: ["estimate"],
      validate: validators.createEstimate,
    },
    handler: (_request, _h, { payload }) => estimate(payload),
  });
export default route;
