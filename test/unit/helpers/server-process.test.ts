// The spawned-server helper refuses a build older than the sources (it would test yesterday's server) and names the
// file that changed; the sources run through tsx need no build.
import assert from "node:assert/strict";
import { statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { staleness } from "../../../server/build.js";
import { root, serverArgs } from "../../helpers/server-process.js";

describe("server-process helper", () => {
  describe("serverArgs()", () => {
    it("runs the sources through tsx without looking at the build", () => {
      assert.deepEqual(serverArgs("sources"), ["--import", "tsx", "server/main.ts"]);
    });
  });

  describe("staleness()", () => {
    it("names a source changed after the build, and nothing once its time is back", function () {
      if (staleness() !== null) this.skip(); // no fresh build to compare with (a unit run without npm run build)
      const source = join(root, "server", "config.ts");
      const { atime, mtime } = statSync(source);
      try {
        utimesSync(source, atime, new Date(Date.now() + 60_000));
        assert.match(staleness() ?? "", /server\/config\.ts changed after the last build/);
      } finally {
        utimesSync(source, atime, mtime);
      }
      assert.equal(staleness(), null);
    });
  });
});
