// Every keyed REST operation checks its caller against the contract's security requirement (its entry of the
// operation table, which the route carries: routes/operation-route.ts): the credential kind it accepts and the key
// scope it names.
// No route declares scopes, so none can forget one; entitlement (402) is decided here and nowhere else on REST.
// Operations callable anonymously (MCP, A2A) check per tool, against the requirement of the operation it runs.
import type { Plugin } from "@hapi/hapi";
import type { Config } from "../config.js";
import { assertMayCall, type OperationAccess } from "../services/access/operation-access.js";
import { notEntitledToOrder } from "../services/dispatch/entitlement.js";
import { callerOf } from "./auth.js";

declare module "@hapi/hapi" {
  interface RouteOptionsApp {
    /** The route's operation (routes/operation-route.ts): its operationId and security requirement. */
    operation?: OperationAccess;
  }
}

export const accessPlugin: Plugin<{ config: Config }> = {
  name: "dispatch-access",
  register(server, { config }) {
    server.ext("onPostAuth", (request, h) => {
      const caller = callerOf(request);
      const access = caller ? request.route.settings.app?.operation : undefined;
      if (caller && access && !access.anonymous)
        assertMayCall(caller, access, () => notEntitledToOrder(caller, config.provisioningContact));
      return h.continue;
    });
  },
};
