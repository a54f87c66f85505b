import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

// There is always a checkpoint to serve: a new log's first (size 0) is signed on first demand if the sequencer has
// not signed it yet.
const route: RouteFactory = ({ auditLog }) =>
  operationRoute("getCheckpoint", {
    handler: async (_request, h) => {
      const checkpoint = await auditLog.latestCheckpoint();
      return h.response(checkpoint!.note).type("text/plain; charset=utf-8").header("cache-control", "no-cache");
    },
  });
export default route;
