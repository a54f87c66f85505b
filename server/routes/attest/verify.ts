import { validators } from "../../generated/validators.js";
import { DomainError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ auditLog }) => ({
  method: "GET",
  path: "/api/attest/verify/{seal}",
  options: {
    auth: false,
    tags: ["attest"],
    validate: {
      ...validators.verifySeal,
      failAction: () => {
        throw new DomainError(
          "bad_request",
          "malformed_seal",
          "A seal is 'seal_' followed by 64 lowercase hexadecimal digits.",
        );
      },
    },
  },
  handler: (request) => auditLog.verify(request.params.seal as string),
});
export default route;
