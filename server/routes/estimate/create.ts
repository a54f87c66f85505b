import { estimate } from "../../services/dispatch/pricing.js";
import { jobLocation } from "../../services/dispatch/job-location.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("createEstimate", {
    handle: async ({ payload }) => ({
      status: 200,
      body: estimate({ ...payload, location: await jobLocation(payload.location) }),
    }),
  });
export default route;
