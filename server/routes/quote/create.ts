import { tenantOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ quotes }) =>
  operationRoute("createQuote", {
    // The access check admits only a key or an OAuth token here, so a caller is present.
    handle: async ({ payload }, { caller }) => ({
      status: 200,
      body: await quotes.create({ id: caller!.id, tenant: tenantOf(caller!) }, payload),
    }),
  });
export default route;
