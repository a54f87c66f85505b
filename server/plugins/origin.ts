// The origin absolute URLs are built on when PUBLIC_BASE_URL is unset. The Host header shapes it only when it
// names this server (its listen address, or a loopback name on its port): a forged Host never reaches a URL.
import type { Request } from "@hapi/hapi";
import { baseUrlOf as baseUrlFrom } from "../services/shared/base-url.js";

const loopbackNames = ["localhost", "127.0.0.1", "[::1]"];

export const originOf = (request: Request): string => {
  const { protocol, host, port, uri } = request.server.info;
  const presented = (request.info.host ?? "").toLowerCase();
  const trusted = [host, ...loopbackNames].map((name) => `${name}:${port}`);
  return trusted.includes(presented) ? `${protocol}://${presented}` : uri;
};

/** PUBLIC_BASE_URL when configured, else the request's own (trusted) origin. */
export const baseUrlOf = (request: Request, publicBaseUrl: string | null): string =>
  baseUrlFrom(publicBaseUrl, originOf(request));
