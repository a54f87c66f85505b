import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { answerContractorEvents } from "../event-response.js";
import { operationRoute } from "../operation-route.js";
import { callerOf } from "../../plugins/auth.js";

const route: RouteFactory = (services) =>
  operationRoute("listContractorEvents", {
    handler: (request, h, { query }) => {
      const { contractorId, environment } = contractorCallerOf(callerOf(request));
      return answerContractorEvents(services, request, h, { contractorId, environment }, query);
    },
  });
export default route;
