// The origin a request arrived at (`http://host:port`): the base of absolute URLs when PUBLIC_BASE_URL is unset.
import type { Request } from "@hapi/hapi";

export const originOf = (request: Request): string => `${request.server.info.protocol}://${request.info.host}`;

/** PUBLIC_BASE_URL when configured, else the request's own origin. */
export const baseUrlOf = (request: Request, publicBaseUrl: string | null): string => publicBaseUrl ?? originOf(request);
