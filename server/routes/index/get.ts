import { tradeIndex } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("getTradeIndex", { handler: (_request, h) => reply(h, "getTradeIndex", 200, tradeIndex()) });
export default route;
