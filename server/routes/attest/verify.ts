import { validators } from "../../generated/validators.js";
import { DomainError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ auditLog }) =>
  operationRoute("verifySeal", {
    // The contract answers a malformed seal 400 malformed_seal (not the generic 422).
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
    handler: async (_request, h, { params }) => reply(h, "verifySeal", 200, await auditLog.verify(params.seal)),
  });
export default route;
