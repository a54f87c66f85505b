import { tradeIndex } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("getTradeIndex", { handle: () => Promise.resolve({ status: 200, body: tradeIndex() }) });
export default route;
