import { estimate } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("createEstimate", {
    handle: ({ payload }) => Promise.resolve({ status: 200, body: estimate(payload) }),
  });
export default route;
