import assert from "node:assert/strict";
import { DomainError } from "../../../../server/services/errors.js";
import { reserveSlot } from "../../../../server/services/events/stream-limits.js";

describe("event stream limits", () => {
  describe("reserveSlot()", () => {
    it("takes slots up to the cap, refuses one more as rate_limited with a retry delay, and frees each once", () => {
      const perKey = new Map<string, number>();
      const releases = [1, 2, 3].map(() => reserveSlot(perKey, "key_a", 3));
      assert.throws(
        () => reserveSlot(perKey, "key_a", 3),
        (error: unknown) =>
          error instanceof DomainError &&
          error.kind === "rate_limited" &&
          error.code === "too_many_streams" &&
          (error.extra.retryAfterSeconds ?? 0) > 0,
      );
      reserveSlot(perKey, "key_b", 3); // another key's slots are its own
      releases[0]();
      releases[0](); // a second release of the same slot frees nothing more
      assert.equal(perKey.get("key_a"), 2);
      releases[1]();
      releases[2]();
      assert.equal(perKey.has("key_a"), false);
    });
  });
});
