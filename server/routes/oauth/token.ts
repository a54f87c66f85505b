import { OAuthError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

type Form = Record<string, string | undefined>;

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1: form-urlencoded id and secret) or from the body. */
function clientCredentials(authorization: string | undefined, form: Form) {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
  if (!basic) return { clientId: form.client_id, clientSecret: form.client_secret };
  if (form.client_secret !== undefined)
    throw new OAuthError(
      400,
      "invalid_request",
      "Authenticate with HTTP Basic or with client_secret in the body, not both.",
    );
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError(401, "invalid_client", "Malformed Basic credentials.");
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

const route: RouteFactory = ({ oauth }) => ({
  method: "POST",
  path: "/api/mcp/oauth/token",
  options: {
    auth: false,
    tags: ["oauth"],
    payload: {
      allow: ["application/x-www-form-urlencoded"],
      failAction: () => {
        throw new OAuthError(400, "invalid_request", "Send a form-encoded body (application/x-www-form-urlencoded).");
      },
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
