// The one rule for the base of absolute URLs: PUBLIC_BASE_URL when configured, else the origin the caller reached
// (plugins/origin.ts); work with no request uses the server's own address, never a guessed host.

/** PUBLIC_BASE_URL when configured, else `origin`: the request's trusted origin or the server's own address. */
export const baseUrlOf = (publicBaseUrl: string | null, origin: string): string => publicBaseUrl ?? origin;

/** The server's own address as configured, for work before it listens (Hapi's server.info.uri once it does). */
export const configuredOrigin = (config: { host: string; port: number }): string =>
  `http://${config.host}:${config.port}`;

/** An order's status URL under `base`, whatever trailing slashes the base carries. */
export const statusUrl = (base: string, id: string): string =>
  `${base.replace(/\/+$/, "")}/api/dispatch/v1/orders/${id}`;
