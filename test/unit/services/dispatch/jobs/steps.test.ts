// The reports a contractor holding a job may make next (jobs/steps.ts), and its 409 naming only those.
import assert from "node:assert/strict";
import { assertJobStep, jobSteps } from "../../../../../server/services/dispatch/jobs/steps.js";
import { DomainError } from "../../../../../server/services/errors.js";

describe("job steps", () => {
  describe("jobSteps()", () => {
    const table = [
      ["dispatched", ["en_route", "on_site", "unable_to_attend"]],
      ["en_route", ["on_site", "unable_to_attend"]],
      ["on_site", ["completed"]],
      ["completed", []],
      ["cancelled", []],
      ["pending_dispatch", []],
      ["accepted_pending_fulfilment", []],
    ] as const;
    for (const [status, steps] of table)
      it(`from ${status}: ${steps.join(", ") || "none"}`, () => {
        assert.deepEqual(jobSteps(status), steps);
      });
  });

  describe("assertJobStep()", () => {
    it("passes a step the holder may take", () => {
      assert.doesNotThrow(() => {
        assertJobStep({ id: "ord_1", status: "dispatched" }, "on_site");
      });
    });
    it("refuses any other with 409 invalid_transition naming only the holder's steps, never cancelled", () => {
      const refused = (() => {
        try {
          assertJobStep({ id: "ord_1", status: "en_route" }, "completed");
        } catch (error) {
          return error;
        }
      })();
      assert.ok(refused instanceof DomainError);
      assert.equal(refused.code, "invalid_transition");
      assert.match(refused.message, /en_route: you may report on_site or unable_to_attend .*, not completed\./);
      assert.doesNotMatch(refused.message, /cancel/);
    });
    it("says a finished job takes no more reports", () => {
      assert.throws(() => {
        assertJobStep({ id: "ord_1", status: "completed" }, "completed");
      }, /completed: it takes no more reports, not completed\./);
    });
  });
});
