import { validators } from "../../generated/validators.js";
import { principalOf } from "../../plugins/auth.js";
import { listAuditRecords, type AuditRecordQuery } from "../../services/audit/records.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ db }) => ({
  method: "GET",
  path: "/api/audit/v1/records",
  options: {
    auth: "api-key",
    tags: ["audit"],
    validate: validators.listAuditRecords,
  },
  handler: (request) => {
    const principal = principalOf(request);
    return listAuditRecords(
      db,
      principal.kind === "key" ? principal.account : null,
      request.query as unknown as AuditRecordQuery,
    );
  },
});
export default route;
