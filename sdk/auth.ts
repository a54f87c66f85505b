// Which credential header a request carries, chosen by the operation's security schemes in the contract
// (sdk/generated/auth.ts, generated from openapi.yaml) rather than by URL prefix: the operation openapi-fetch is
// calling (`METHOD schemaPath`) names the schemes it accepts, and the first one this client holds a credential for
// decides the header. So an admin operation never receives the API key, nor a keyed one the admin token.
import type { Middleware } from "openapi-fetch";
import { operationSchemes, type SecurityScheme } from "./generated/auth.js";

export interface Credentials {
  apiKey?: string;
  accessToken?: string;
  adminToken?: string;
}

/** One header to set: name (lower case) and value. */
export type CredentialHeader = readonly [name: string, value: string];

const bearer = (token: string | undefined): CredentialHeader | undefined =>
  token ? ["authorization", `Bearer ${token}`] : undefined;

/**
 * The header each scheme needs from the client's credentials, undefined when the client holds none for it. A
 * `Record` over every scheme, so a scheme added to the contract fails to compile here until the SDK handles it.
 */
const schemeHeader: Readonly<Record<SecurityScheme, (credentials: Credentials) => CredentialHeader | undefined>> = {
  ApiKey: ({ apiKey }) => (apiKey ? ["x-api-key", apiKey] : undefined),
  OAuthToken: ({ accessToken }) => bearer(accessToken),
  McpBearerKey: ({ apiKey, accessToken }) => bearer(apiKey ?? accessToken),
  AdminToken: ({ adminToken }) => bearer(adminToken),
  // The token endpoint's client id and secret are the caller's to send (form body or its own Basic header).
  OAuthClientBasic: () => undefined,
};

/**
 * Public operations (no scheme) get what the client sent them before the table existed — the API key in
 * `x-api-key`, else the access token as a bearer — so nothing changes for callers. An operation missing from the
 * table (a path not in the contract; should not happen with the typed client) is treated the same.
 */
function publicHeader({ apiKey, accessToken }: Credentials): CredentialHeader | undefined {
  return apiKey ? ["x-api-key", apiKey] : bearer(accessToken);
}

/** The credential header for `method schemaPath` (openapi-fetch's contract path template), if any. */
export function credentialHeader(
  method: string,
  schemaPath: string,
  credentials: Credentials,
): CredentialHeader | undefined {
  const schemes = operationSchemes[`${method.toUpperCase()} ${schemaPath}`];
  if (!schemes?.length) return publicHeader(credentials);
  for (const scheme of schemes) {
    const header = schemeHeader[scheme](credentials);
    if (header) return header;
  }
  // A key-only operation called with only an access token still gets the token, as before the table: the server
  // then says what is wrong (401 api_key_required, "an OAuth access token is not accepted here"), not just that
  // no credential came.
  return schemes.includes("ApiKey") ? bearer(credentials.accessToken) : undefined;
}

/** Sets the operation's credential header on each request (overriding one given per call, as before). */
export function authMiddleware(credentials: Credentials): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const header = credentialHeader(request.method, schemaPath, credentials);
      if (header) request.headers.set(header[0], header[1]);
      return request;
    },
  };
}
