import { validators } from "../../generated/validators.js";
import { DomainError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ probe }) =>
  operationRoute("probeStorefront", {
    options: { plugins: { rateLimit: "probe" } },
    validate: {
      payload: validators.probeStorefront.payload.required(),
      // The contract answers every unusable url 400 invalid_url (not the generic 422).
      failAction: (_request, _h, err) => {
        throw new DomainError(
          "bad_request",
          "invalid_url",
          err!.message || 'Send {"url": "https://shop.example.com"}.',
        );
      },
    },
    handle: async ({ payload }) => ({ status: 200, body: await probe.probe(payload.url) }),
  });
export default route;
