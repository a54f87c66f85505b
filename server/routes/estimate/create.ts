import { estimate } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("createEstimate", {
    handler: (_request, _h, { payload }) => estimate(payload),
  });
export default route;
