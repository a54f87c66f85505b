// pino request logging (hapi-pino) bound to the request id; credentials are redacted.
import type { Plugin } from "@hapi/hapi";
import hapiPino from "hapi-pino";
import type { Writable } from "node:stream";
import { requestIdOf } from "./request-id.js";

export const loggingPlugin: Plugin<{ level: string; stream?: Writable }> = {
  name: "dispatch-logging",
  async register(server, { level, stream }) {
    await server.register({
      plugin: hapiPino,
      options: {
        level,
        redact: ["req.headers.authorization", "req.headers['x-api-key']", "req.headers.cookie"],
        ignorePaths: ["/healthz", "/readyz"],
        // Not 'request-error': errors.ts logs each 5xx at its level, throttled per cause (no line per request).
        logEvents: ["onPostStart", "onPostStop", "response"],
        // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- hapi-pino types it as a WriteStream; pino takes any Writable
        ...(stream ? { stream: stream as NodeJS.WriteStream } : {}),
        logRequestComplete: level === "debug" || level === "trace",
        getChildBindings: (request) => ({ req_id: requestIdOf(request) }),
      },
    });
  },
};
