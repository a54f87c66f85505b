// A contractor's base ZIP: its default (the first area's first prefix, else first city, else the state's principal
// ZIP) always lies in the first area's state, and a base the dataset does not list or in no state served is named.
import assert from "node:assert/strict";
import {
  baseZipProblem,
  defaultBaseZip,
  settledBaseZip,
} from "../../../../../server/services/dispatch/geo/base-zip.js";
import { principalZip, zipPoint } from "../../../../../server/services/dispatch/geo/zip-points.js";
import { contractEnums } from "../../../../../server/generated/contract.js";

describe("dispatch geo: a contractor's base ZIP", () => {
  describe("defaultBaseZip()", () => {
    it("takes the ZIP nearest the centre of the first area's first prefix", () => {
      const zip = defaultBaseZip([{ state: "TX", cities: ["Dallas"], zip_prefixes: ["787", "752"] }, { state: "CA" }]);
      assert.equal(zip, "78703");
      assert.equal(zipPoint(zip)?.city, "Austin");
    });

    it("takes the first city's central ZIP when the first prefix has none in the state, or there is no prefix", () => {
      assert.equal(zipPoint(defaultBaseZip([{ state: "TX", cities: ["Dallas"] }])!)?.city, "Dallas");
      assert.equal(
        zipPoint(defaultBaseZip([{ state: "tx", cities: ["dallas"], zip_prefixes: ["100"] }])!)?.city,
        "Dallas",
      );
    });

    it("takes the state's principal ZIP (its city with the most ZIPs) otherwise", () => {
      assert.equal(zipPoint(defaultBaseZip([{ state: "IL" }])!)?.city, "Chicago");
      assert.equal(zipPoint(defaultBaseZip([{ state: "TX", cities: ["Atlantis"] }])!)?.city, "Houston");
      assert.equal(zipPoint(defaultBaseZip([{ state: "NY" }])!)?.city, "New York");
    });

    it("has a principal ZIP, in the state, for every state, DC and territory of the contract", () => {
      for (const state of contractEnums.UsState) {
        const zip = defaultBaseZip([{ state }]);
        assert.equal(zip, principalZip(state)?.zip, state);
        assert.equal(zipPoint(zip!)?.state, state);
        assert.equal(baseZipProblem(zip!, [{ state }]), null, state);
      }
    });
  });

  describe("baseZipProblem()", () => {
    it("accepts a ZIP in any state served", () => {
      assert.equal(baseZipProblem("75201", [{ state: "OK" }, { state: "tx" }]), null);
    });

    it("names base_zip for a ZIP of another state", () => {
      assert.deepEqual(baseZipProblem("75201", [{ state: "CA" }, { state: "NV" }]), {
        pointer: "/base_zip",
        message: '"base_zip" 75201 is in TX, not in a state served (CA, NV)',
      });
    });

    it("names base_zip (at the pointer given) for a ZIP the dataset does not list", () => {
      assert.deepEqual(baseZipProblem("00000", [{ state: "TX" }], "/contractors/3/base_zip"), {
        pointer: "/contractors/3/base_zip",
        message: `"base_zip" 00000 is not a US ZIP the server's ZIP dataset lists`,
      });
    });
  });

  describe("settledBaseZip()", () => {
    const areas = [{ state: "TX", zip_prefixes: ["752"] }];
    it("keeps the given base, else the current one while it lies in a state served, else the default", () => {
      assert.equal(settledBaseZip(areas, "78701", "75201"), "78701");
      assert.equal(settledBaseZip(areas, undefined, "78701"), "78701");
      assert.equal(settledBaseZip([{ state: "CA" }], undefined, "78701"), defaultBaseZip([{ state: "CA" }]));
      assert.equal(settledBaseZip(areas), defaultBaseZip(areas));
    });
  });
});
