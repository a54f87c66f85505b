// pino request logging (hapi-pino) with request ids; credentials are redacted.
import type { Plugin, ResponseObject } from "@hapi/hapi";
import hapiPino from "hapi-pino";

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
      },
    });
    server.ext("onPreResponse", (request, h) => {
      const response = request.response;
      if (!("isBoom" in response && response.isBoom)) (response as ResponseObject).header("x-request-id", request.info.id);
      return h.continue;
    });
  },
};
