import type { RouteFactory } from "../types.js";

// The sequencer signs a checkpoint (size 0 for an empty log) before the server accepts requests.
const route: RouteFactory = ({ auditLog }) => ({
  method: "GET",
  path: "/api/attest/checkpoint",
  options: { auth: false, tags: ["attest"] },
  handler: async (_request, h) => {
    const checkpoint = await auditLog.latestCheckpoint();
    return h.response(checkpoint!.note).type("text/plain; charset=utf-8").header("cache-control", "no-cache");
  },
});
export default route;
