// Drive times from geography: known distances (within Austin, Austin to Dallas), the floor and the cap, symmetry,
// the fallbacks for a ZIP or a location the dataset does not place. Its cost is measured in `npm run bench` (matcher
// time per order on the dispatch day), never timed here.
import assert from "node:assert/strict";
import {
  driveMinutes,
  driveMinutesForMiles,
  driveMinutesTo,
  driveModel,
  medianDriveMinutes,
} from "../../../../../server/services/dispatch/geo/drive.js";
import { milesBetween, stateZips, zipPoint } from "../../../../../server/services/dispatch/geo/zip-points.js";

describe("dispatch geo: drive times", () => {
  describe("driveMinutesForMiles()", () => {
    it("adds the start-up to road miles (x1.3) at 30 mph for 10 miles, 45 mph to 40, then 60 mph", () => {
      assert.equal(driveMinutesForMiles(10 / 1.3), 10 + 20); // 10 road miles in town
      assert.equal(driveMinutesForMiles(40 / 1.3), 10 + 20 + 40); // then 30 at 45 mph
      assert.equal(driveMinutesForMiles(100 / 1.3), 10 + 20 + 40 + 60); // then 60 at 60 mph
    });

    it("floors at the start-up and one road mile, and caps at a day's driving (11 hours)", () => {
      assert.equal(driveMinutesForMiles(0), 12);
      assert.equal(driveMinutesForMiles(3000), driveModel.maxMinutes);
      assert.equal(driveModel.maxMinutes, 660);
    });

    it("never falls as the distance grows", () => {
      let previous = 0;
      for (let miles = 0; miles < 600; miles += 0.5) {
        const minutes = driveMinutesForMiles(miles);
        assert.ok(minutes >= previous, `${miles} miles: ${minutes} < ${previous}`);
        previous = minutes;
      }
    });
  });

  describe("driveMinutes()", () => {
    it("gives about half an hour across Austin (downtown 78701 to north Austin 78759, 9.2 miles)", () => {
      assert.equal(Math.round(milesBetween(zipPoint("78701")!, zipPoint("78759")!) * 10) / 10, 9.2);
      assert.equal(driveMinutes("78701", "78759"), 33);
    });

    it("gives about four and a half hours from Austin to Dallas (183 miles as the crow flies)", () => {
      assert.equal(Math.round(milesBetween(zipPoint("78701")!, zipPoint("75201")!)), 183);
      assert.equal(driveMinutes("78701", "75201"), 267);
      assert.ok(driveMinutes("78701", "75201") > 5 * driveMinutes("78701", "78759"));
    });

    it("is the floor within one ZIP, and the cap coast to coast", () => {
      assert.equal(driveMinutes("78701", "78701"), 12);
      assert.equal(driveMinutes("10001", "90012"), 660);
    });

    it("is symmetric", () => {
      const zips = ["78701", "78759", "75201", "77002", "10001", "60601", "99501", "00901"];
      for (const from of zips) for (const to of zips) assert.equal(driveMinutes(from, to), driveMinutes(to, from));
    });

    it("reads a ZIP+4 by its first five digits", () => {
      assert.equal(driveMinutes("78701-1234", "75201-0001"), driveMinutes("78701", "75201"));
    });

    it("places a ZIP the dataset does not list at its sectional centre, and gives the unknown drive without one", () => {
      assert.equal(zipPoint("78700"), undefined);
      const section = driveMinutes("78701", "78700");
      assert.ok(section >= 12 && section < driveMinutes("78701", "75201"), `${section}`);
      assert.equal(zipPoint("00000"), undefined);
      assert.equal(driveMinutes("78701", "00000"), driveModel.unknownMinutes);
      assert.equal(driveMinutes("00000", "78701"), driveModel.unknownMinutes);
    });
  });

  describe("driveMinutesTo()", () => {
    it("drives to the job's ZIP when the dataset lists it", () => {
      assert.equal(
        driveMinutesTo("78701", { state: "TX", zip: "75201", city: "Austin" }),
        driveMinutes("78701", "75201"),
      );
    });

    it("drives to the centre of the job's city when it has no ZIP, or one the dataset does not list", () => {
      const dallas = driveMinutesTo("78701", { state: "TX", city: "Dallas" });
      assert.ok(Math.abs(dallas - driveMinutes("78701", "75201")) <= 15, `${dallas}`);
      assert.equal(driveMinutesTo("78701", { state: "tx", city: "dallas", zip: "00000" }), dallas);
    });

    it("falls back to the ZIP's sectional centre, then to the median drive to the state's ZIPs", () => {
      assert.equal(driveMinutesTo("78701", { state: "TX", zip: "78700" }), driveMinutes("78701", "78700"));
      const median = medianDriveMinutes("78701", "TX");
      assert.equal(driveMinutesTo("78701", { state: "TX", city: "Nowhere Such" }), median);
      assert.equal(driveMinutesTo("78701", { state: "TX" }), median);
      const drives = stateZips("TX").map((point) => driveMinutes("78701", point.zip));
      assert.equal(drives.filter((minutes) => minutes < median).length < drives.length / 2, true);
      assert.equal(drives.filter((minutes) => minutes > median).length < drives.length / 2, true);
    });
  });
});
