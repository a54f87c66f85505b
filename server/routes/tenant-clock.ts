// Every request of a dispatch_test_ key runs on its account's sandbox clock (services/shared/test-clock.ts); live
// keys, contractors, OAuth clients and the operator read the wall clock. One wrapper around every route's handler,
// not a clock read in each service: services read time through one seam (shared/clock.ts), and which tenant's time
// applies is known where the request is (docs/decisions.md, "The sandbox follows the live rules, on a test clock").
import type { Lifecycle, ServerRoute } from "@hapi/hapi";
import { callerOf } from "../plugins/auth.js";
import type { Services } from "../services/index.js";

/** The route with its handler run on the test key's account's clock; other routes as they are. */
export function onCallersClock(route: ServerRoute, { sandbox }: Services): ServerRoute {
  if (typeof route.handler !== "function") return route;
  const handler = route.handler as Lifecycle.Method; // the routes' handlers are Hapi lifecycle methods
  const wrapped: Lifecycle.Method = function (request, h) {
    const caller = callerOf(request);
    if (caller?.kind !== "key" || caller.environment !== "test") return handler.call(this, request, h);
    const tenant = { account: caller.account, environment: caller.environment };
    return sandbox.onTenantClock(tenant, async () => handler.call(this, request, h));
  };
  return { ...route, handler: wrapped };
}
