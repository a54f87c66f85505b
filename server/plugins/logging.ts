// pino request logging (hapi-pino) bound to the request id; credentials are redacted.
import type { Plugin } from "@hapi/hapi";
import hapiPino from "hapi-pino";
import { requestIdOf } from "./request-id.js";

export const loggingPlugin: Plugin<{ level: string }> = {
  name: "dispatch-logging",
  async register(server, { level }) {
    await server.register({
      plugin: hapiPino,
      options: {
        level,
        redact: ["req.headers.authorization", "req.headers['x-api-key']", "req.headers.cookie"],
        ignorePaths: ["/healthz", "/readyz"],
        logRequestComplete: level === "debug" || level === "trace",
        getChildBindings: (request) => ({ req_id: requestIdOf(request) }),
      },
    });
  },
};
