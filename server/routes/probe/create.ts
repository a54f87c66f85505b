import { validators } from "../../generated/validators.js";
import { DomainError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ probe }) => {
  return {
    method: "POST",
    path: "/api/agentic-commerce/probe",
    options: {
      auth: false,
      tags: ["probe"],
      plugins: { rateLimit: "probe" },
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
    },
    handler: (request) => probe.probe((request.payload as { url: string }).url),
  };
};
export default route;
