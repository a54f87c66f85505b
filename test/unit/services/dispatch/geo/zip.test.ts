import assert from "node:assert/strict";
import { zipPlace } from "../../../../../server/services/dispatch/geo/zip.js";

describe("dispatch geo: ZIP codes", () => {
  describe("zipPlace()", () => {
    const cases: [string, string, { state: string; latitude: number; longitude: number } | null][] = [
      ["a Manhattan ZIP", "10001", { state: "NY", latitude: 40.7484, longitude: -73.9967 }],
      [
        "a ZIP+4 (read by its first five digits)",
        "78701-1234",
        { state: "TX", latitude: 30.2713, longitude: -97.7426 },
      ],
      ["a DC ZIP", "20001", { state: "DC", latitude: 38.9122, longitude: -77.0177 }],
      ["a Puerto Rico ZIP", "00601", { state: "PR", latitude: 18.16, longitude: -66.72 }],
      ["a ZIP no one has", "00000", null],
      ["text that is no ZIP", "abcde", null],
    ];
    for (const [what, zip, place] of cases)
      it(`gives ${place ? `${place.state} and its coordinates` : "null"} for ${what}`, async () => {
        const found = await zipPlace(zip);
        assert.deepEqual(found && { state: found.state, latitude: found.latitude, longitude: found.longitude }, place);
      });

    it("names the five-digit ZIP it read", async () => {
      assert.equal((await zipPlace("78701-1234"))?.zip, "78701");
    });
  });
});
