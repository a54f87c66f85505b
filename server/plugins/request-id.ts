// Request ids: a caller's X-Request-Id when it is sane, else `req_` + random; echoed on every response.
import Boom from "@hapi/boom";
import type { Plugin, Request } from "@hapi/hapi";
import { randomBase62 } from "../services/shared/ids.js";

const acceptable = /^[A-Za-z0-9._:-]{1,64}$/;

declare module "@hapi/hapi" {
  interface PluginsStates {
    "dispatch-request-id"?: string;
  }
}

export function requestIdOf(request: Request): string {
  return request.plugins["dispatch-request-id"] ?? request.info.id;
}

export const requestIdPlugin: Plugin<void> = {
  name: "dispatch-request-id",
  register(server) {
    server.ext("onRequest", (request, h) => {
      const incoming = request.headers["x-request-id"];
      request.plugins["dispatch-request-id"] =
        typeof incoming === "string" && acceptable.test(incoming) ? incoming : `req_${randomBase62(16)}`;
      return h.continue;
    });
    server.ext(
      "onPreResponse",
      (request, h) => {
        const response = request.response;
        if (!Boom.isBoom(response)) response.header("x-request-id", requestIdOf(request));
        return h.continue;
      },
      { after: ["dispatch-errors"] },
    );
  },
};
