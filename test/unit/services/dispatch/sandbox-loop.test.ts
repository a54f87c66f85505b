// The sandbox walker and the dispatcher run on the shared background-job helper: a failing run reaches the caller's
// logger under the job's name (it used to be swallowed) and the job keeps polling.
import assert from "node:assert/strict";
import type { Config } from "../../../../server/config.js";
import { emptyPglite } from "../../../helpers/empty-pglite.js";
import type { ContractorService } from "../../../../server/services/dispatch/contractors.js";
import { createDispatchDomain } from "../../../../server/services/dispatch-domain.js";

describe("orders service", () => {
  describe("startWorkers()", () => {
    it("hands each failed poll to onError, named by its job, and keeps polling", async () => {
      const db = emptyPglite(); // no migrations: every poll fails on a missing table
      const config = {
        sandboxStepMs: 20,
        dispatcherIntervalMs: 1000,
        publicBaseUrl: null,
        host: "127.0.0.1",
        port: 0,
      } as unknown as Config;
      await db.raw("select 1"); // PGlite starts before the clock below does
      const dispatch = createDispatchDomain(db, {} as ContractorService, config);
      const errors: Error[] = [];
      const dispatcherErrors: Error[] = [];
      dispatch.workers.start(
        "http://127.0.0.1:1",
        (job) => (error) => {
          (job === "sandbox" ? errors : dispatcherErrors).push(error as Error);
        },
        () => undefined,
      );
      try {
        const deadline = Date.now() + 20_000;
        while (errors.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await dispatch.workers.stop();
        await db.destroy();
      }
      assert.ok(errors.length >= 3, `failed polls logged: ${String(errors.length)}`);
      assert.match(errors[0].message, /orders/);
      assert.ok(dispatcherErrors.length >= 1, "the dispatcher's failed sweep is logged as the dispatcher's");
      assert.match(dispatcherErrors[0].message, /order_offers/); // a sweep first expires due offers
    });
  });
});
