import { strict as assert } from "node:assert";
import Hapi from "@hapi/hapi";
import { errorsPlugin } from "../../../server/plugins/errors.js";
import { inFlightPlugin } from "../../../server/plugins/in-flight.js";
import { loggingPlugin } from "../../../server/plugins/logging.js";
import { requestIdPlugin } from "../../../server/plugins/request-id.js";

/** A server whose /api/slow and /readyz answer only when `release()` is called. */
async function serverHolding(max: number) {
  const gate: { open?: () => void } = {};
  const held = new Promise<void>((resolve) => {
    gate.open = resolve;
  });
  const server = Hapi.server();
  await server.register({ plugin: loggingPlugin, options: { level: "silent" } });
  await server.register([requestIdPlugin, errorsPlugin]);
  await server.register({ plugin: inFlightPlugin, options: { max } });
  for (const path of ["/api/slow", "/readyz", "/api/admin/v1/metrics"])
    server.route({ method: "GET", path, handler: async () => (await held, { ok: true }) });
  server.route({ method: "GET", path: "/api/fast", handler: () => ({ ok: true }) });
  return {
    server,
    release: () => {
      gate.open?.();
    },
  };
}

describe("in-flight plugin", () => {
  it("answers 503 overloaded with Retry-After past the bound, and takes requests again once they finish", async () => {
    const { server, release } = await serverHolding(2);
    const slow = [server.inject("/api/slow"), server.inject("/api/slow")];
    await new Promise((r) => setImmediate(r));
    const refused = await server.inject("/api/fast");
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers["retry-after"], "1");
    assert.equal(refused.headers["content-type"], "application/problem+json");
    assert.equal((refused.result as { code: string }).code, "overloaded");
    release();
    assert.deepEqual(
      (await Promise.all(slow)).map((r) => r.statusCode),
      [200, 200],
    );
    assert.equal((await server.inject("/api/fast")).statusCode, 200);
  });

  it("leaves readiness and metrics outside the bound", async () => {
    const { server, release } = await serverHolding(1);
    const slow = server.inject("/api/slow");
    await new Promise((r) => setImmediate(r));
    const exempt = [server.inject("/readyz"), server.inject("/api/admin/v1/metrics")];
    release();
    assert.deepEqual(
      (await Promise.all([slow, ...exempt])).map((r) => r.statusCode),
      [200, 200, 200],
    );
  });

  it("counts a request that failed as finished", async () => {
    const { server } = await serverHolding(1);
    for (let i = 0; i < 3; i++) assert.equal((await server.inject("/api/missing")).statusCode, 404);
    assert.equal((await server.inject("/api/fast")).statusCode, 200);
  });
});
