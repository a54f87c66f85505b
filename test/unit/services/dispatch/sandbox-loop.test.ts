// The sandbox walker runs on the shared background-job helper: a failing step reaches the caller's logger (it used
// to be swallowed) and the walker keeps polling.
import assert from "node:assert/strict";
import type { Config } from "../../../../server/config.js";
import { createDb } from "../../../../server/db/knex.js";
import type { ContractorService } from "../../../../server/services/dispatch/contractors.js";
import { createOrderService } from "../../../../server/services/dispatch/orders/index.js";

describe("orders service", () => {
  describe("startSandboxClock()", () => {
    it("hands each failed poll to onError and keeps polling", async () => {
      const db = createDb("pglite://memory"); // no migrations: every poll fails on the missing orders table
      const config = { sandboxStepMs: 20, publicBaseUrl: null, host: "127.0.0.1", port: 0 } as unknown as Config;
      await db.raw("select 1"); // PGlite starts before the clock below does
      const orders = createOrderService(db, {} as ContractorService, config);
      const errors: Error[] = [];
      orders.startSandboxClock("http://127.0.0.1:1", (error) => errors.push(error as Error));
      try {
        const deadline = Date.now() + 20_000;
        while (errors.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await orders.stopSandboxClock();
        await db.destroy();
      }
      assert.ok(errors.length >= 3, `failed polls logged: ${String(errors.length)}`);
      assert.match(errors[0].message, /orders/);
    });
  });
});
