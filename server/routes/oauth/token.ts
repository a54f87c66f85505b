import type { Request } from "@hapi/hapi";
import { validators } from "../../generated/validators.js";
import { OAuthError } from "../../services/errors.js";
import { isTooLarge } from "../../plugins/errors.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

type Form = Record<string, string | undefined>;

/** Percent-decoding that turns bad escapes (`%ZZ`) into the client error they are, not a 500. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    throw new OAuthError("invalid_client", "Malformed Basic credentials (bad percent-encoding).");
  }
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1: form-urlencoded id and secret) or from the body. */
function clientCredentials(authorization: string | undefined, form: Form) {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
  if (!basic) return { clientId: form.client_id, clientSecret: form.client_secret };
  if (form.client_secret !== undefined)
    throw new OAuthError(
      "invalid_request",
      "Authenticate with HTTP Basic or with client_secret in the body, not both.",
    );
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "Malformed Basic credentials.");
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

/** The client id a token request names, for the failure throttle (plugins/oauth-client-throttle.ts). */
const clientIdOf = (request: Request) =>
  clientCredentials(request.headers.authorization as string | undefined, (request.payload ?? {}) as Form).clientId;

const route: RouteFactory = ({ oauth }) =>
  operationRoute("createOAuthToken", {
    options: {
      plugins: { oauthClient: clientIdOf },
      payload: {
        allow: ["application/x-www-form-urlencoded"],
        failAction: (_request, _h, error) => {
          if (isTooLarge(error)) throw error!; // Hapi always passes the error to failAction
          throw new OAuthError("invalid_request", "Send a form-encoded body (application/x-www-form-urlencoded).");
        },
      },
    },
    // RFC 6749 §5.2 answers a bad token request invalid_request (not the generic 422).
    validate: {
      payload: validators.createOAuthToken.payload.allow(null),
      failAction: (_r, _h, err) => {
        throw new OAuthError("invalid_request", err!.message);
      },
    },
    handler: async (request, h) => {
      const form = (request.payload ?? {}) as Form;
      const token = await oauth.issueToken({
        grantType: form.grant_type,
        scope: form.scope,
        ...clientCredentials(request.headers.authorization as string | undefined, form),
      });
      return h.response(token).header("cache-control", "no-store").header("pragma", "no-cache");
    },
  });
export default route;
