// Times in tables on the job's local clock with its offset, from its state's zone (UsState x-time-zones).
import assert from "node:assert/strict";
import { localTime, zoneOfState } from "../../../cli/local-time.js";

describe("cli local time", () => {
  const cases: [string, string | undefined, string][] = [
    ["2026-11-30T16:05:00Z", "America/Chicago", "2026-11-30T10:05:00-06:00"], // standard time
    ["2026-07-01T16:05:00.250Z", "America/Chicago", "2026-07-01T11:05:00-05:00"], // daylight time
    ["2026-11-30T16:05:00Z", "Pacific/Honolulu", "2026-11-30T06:05:00-10:00"],
    ["2026-11-30T16:05:00Z", "UTC", "2026-11-30T16:05:00+00:00"],
    ["2026-11-30T16:05:00Z", undefined, "2026-11-30T16:05:00Z"], // no zone: as the API sent it
    ["not a time", "America/Chicago", "not a time"],
  ];
  for (const [iso, zone, expected] of cases)
    it(`shows ${iso} in ${zone ?? "no zone"} as ${expected}`, () => {
      assert.equal(localTime(iso, zone), expected);
    });

  it("takes a state's zone from the contract", () => {
    assert.equal(zoneOfState("TX"), "America/Chicago");
    assert.equal(zoneOfState("AZ"), "America/Phoenix");
    assert.equal(zoneOfState("XX"), undefined);
  });
});
