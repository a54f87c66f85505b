// The availability rules the contract's schema cannot state: a zone Intl knows (kept as written, letter case
// corrected), each interval's end after its start, a day's intervals in order without overlap; and the stored week.
import assert from "node:assert/strict";
import { DomainError } from "../../../../server/services/errors.js";
import {
  assertAvailability,
  availabilityProblems,
  fullWeek,
  storedTimeZone,
} from "../../../../server/services/dispatch/working-hours.js";

describe("working hours", () => {
  describe("storedTimeZone()", () => {
    const cases: [string, string | null][] = [
      ["America/New_York", "America/New_York"],
      ["america/new_york", "America/New_York"],
      ["Asia/Kolkata", "Asia/Kolkata"], // not ICU's legacy Asia/Calcutta
      ["UTC", "UTC"],
      ["Mars/Olympus_Mons", null],
      ["", null],
    ];
    for (const [given, stored] of cases)
      it(`${JSON.stringify(given)} → ${String(stored)}`, () => {
        assert.equal(storedTimeZone(given), stored);
      });
  });

  describe("availabilityProblems()", () => {
    const cases: { what: string; input: Parameters<typeof availabilityProblems>[0]; pointers: string[] }[] = [
      { what: "nothing given", input: {}, pointers: [] },
      {
        what: "two intervals with a break, and one ending at 24:00",
        input: {
          time_zone: "Asia/Kolkata",
          working_hours: {
            monday: [
              { start: "08:00", end: "12:00" },
              { start: "12:00", end: "17:00" },
            ],
            friday: [{ start: "22:00", end: "24:00" }],
          },
        },
        pointers: [],
      },
      { what: "an unknown zone", input: { time_zone: "Europe/Atlantis" }, pointers: ["/time_zone"] },
      {
        what: "an end before its start, and an overlap",
        input: {
          working_hours: {
            monday: [{ start: "18:00", end: "08:00" }],
            saturday: [
              { start: "09:00", end: "13:00" },
              { start: "08:00", end: "10:00" },
            ],
          },
        },
        pointers: ["/working_hours/monday/0/end", "/working_hours/saturday/1/start"],
      },
    ];
    for (const { what, input, pointers } of cases)
      it(what, () => {
        assert.deepEqual(
          availabilityProblems(input).map((p) => p.pointer),
          pointers,
        );
      });

    it("prefixes the pointers (a fixtures file's /contractors/i)", () => {
      assert.deepEqual(
        availabilityProblems({ time_zone: "Nowhere" }, "/contractors/3")[0].pointer,
        "/contractors/3/time_zone",
      );
    });

    it("assertAvailability() throws a 422 validation_failed with the field errors", () => {
      assert.throws(
        () => {
          assertAvailability({ time_zone: "Nowhere" });
        },
        (error: DomainError) => error.kind === "validation" && error.extra.errors?.[0].pointer === "/time_zone",
      );
    });
  });

  it("fullWeek() lists all seven days, a day left out empty", () => {
    const week = fullWeek({ tuesday: [{ start: "07:00", end: "18:00" }] });
    assert.deepEqual(Object.keys(week), ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
    assert.deepEqual(week.tuesday, [{ start: "07:00", end: "18:00" }]);
    assert.deepEqual(week.monday, []);
  });
});
