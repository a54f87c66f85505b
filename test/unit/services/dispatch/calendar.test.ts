// The contractor calendar: weekly local working hours as UTC intervals, table-driven, including the US
// spring-forward and fall-back days in America/New_York (23- and 25-hour days, a start inside the skipped hour, a
// start in the repeated hour), a half-hour zone (Asia/Kolkata), a shift split at midnight, and "working at t".
import assert from "node:assert/strict";
import {
  isWorkingAt,
  localToInstant,
  maxRangeDays,
  offsetMinutes,
  workingIntervals,
  type Calendar,
} from "../../../../server/services/dispatch/calendar.js";
import { alwaysWorking, fullWeek, type WorkingHoursInput } from "../../../../server/services/dispatch/working-hours.js";

const calendar = (time_zone: string, hours: WorkingHoursInput): Calendar => ({
  time_zone,
  working_hours: fullWeek(hours),
});
const day = (start: string, end: string) => [{ start, end }];
const weekdays = (start: string, end: string): WorkingHoursInput => ({
  monday: day(start, end),
  tuesday: day(start, end),
  wednesday: day(start, end),
  thursday: day(start, end),
  friday: day(start, end),
});
const iso = (intervals: { start: Date; end: Date }[]) =>
  intervals.map((i) => [i.start.toISOString(), i.end.toISOString()]);

describe("calendar", () => {
  describe("workingIntervals()", () => {
    const cases: { what: string; calendar: Calendar; from: string; to: string; expected: [string, string][] }[] = [
      {
        what: "New York weekdays 08–17 in winter (UTC-5), Friday to Monday",
        calendar: calendar("America/New_York", weekdays("08:00", "17:00")),
        from: "2026-11-20T00:00:00Z",
        to: "2026-11-24T00:00:00Z",
        expected: [
          ["2026-11-20T13:00:00.000Z", "2026-11-20T22:00:00.000Z"],
          ["2026-11-23T13:00:00.000Z", "2026-11-23T22:00:00.000Z"],
        ],
      },
      {
        what: "New York in summer (UTC-4)",
        calendar: calendar("America/New_York", weekdays("08:00", "17:00")),
        from: "2026-07-01T00:00:00Z",
        to: "2026-07-02T00:00:00Z",
        expected: [["2026-07-01T12:00:00.000Z", "2026-07-01T21:00:00.000Z"]],
      },
      {
        what: "spring forward (Sunday 8 March 2026): the whole day is 23 hours",
        calendar: calendar("America/New_York", { sunday: day("00:00", "24:00") }),
        from: "2026-03-07T00:00:00Z",
        to: "2026-03-10T00:00:00Z",
        expected: [["2026-03-08T05:00:00.000Z", "2026-03-09T04:00:00.000Z"]],
      },
      {
        what: "spring forward: a start in the skipped hour (02:30) starts at the gap's end plus 30 minutes (03:30 EDT)",
        calendar: calendar("America/New_York", { sunday: day("02:30", "05:00") }),
        from: "2026-03-08T00:00:00Z",
        to: "2026-03-09T00:00:00Z",
        expected: [["2026-03-08T07:30:00.000Z", "2026-03-08T09:00:00.000Z"]],
      },
      {
        what: "spring forward: 01:00–03:00 spans one real hour",
        calendar: calendar("America/New_York", { sunday: day("01:00", "03:00") }),
        from: "2026-03-08T00:00:00Z",
        to: "2026-03-09T00:00:00Z",
        expected: [["2026-03-08T06:00:00.000Z", "2026-03-08T07:00:00.000Z"]],
      },
      {
        what: "fall back (Sunday 1 November 2026): the whole day is 25 hours",
        calendar: calendar("America/New_York", { sunday: day("00:00", "24:00") }),
        from: "2026-10-31T00:00:00Z",
        to: "2026-11-03T00:00:00Z",
        expected: [["2026-11-01T04:00:00.000Z", "2026-11-02T05:00:00.000Z"]],
      },
      {
        what: "fall back: a start in the repeated hour (01:30) is its first occurrence (EDT)",
        calendar: calendar("America/New_York", { sunday: day("01:30", "05:00") }),
        from: "2026-11-01T00:00:00Z",
        to: "2026-11-02T00:00:00Z",
        expected: [["2026-11-01T05:30:00.000Z", "2026-11-01T10:00:00.000Z"]],
      },
      {
        what: "Asia/Kolkata (UTC+5:30) 09:00–17:30, across the UTC date line of its morning",
        calendar: calendar("Asia/Kolkata", { monday: day("09:00", "17:30"), tuesday: day("00:00", "02:00") }),
        from: "2026-11-22T00:00:00Z",
        to: "2026-11-25T00:00:00Z",
        expected: [
          ["2026-11-23T03:30:00.000Z", "2026-11-23T12:00:00.000Z"],
          ["2026-11-23T18:30:00.000Z", "2026-11-23T20:30:00.000Z"],
        ],
      },
      {
        what: "a night shift split at midnight comes back as one interval",
        calendar: calendar("America/Chicago", { friday: day("22:00", "24:00"), saturday: day("00:00", "06:00") }),
        from: "2026-11-20T00:00:00Z",
        to: "2026-11-23T00:00:00Z",
        expected: [["2026-11-21T04:00:00.000Z", "2026-11-21T12:00:00.000Z"]],
      },
      {
        what: "two intervals a day (a lunch break), clipped to the range",
        calendar: calendar("UTC", {
          monday: [
            { start: "08:00", end: "12:00" },
            { start: "13:00", end: "17:00" },
          ],
        }),
        from: "2026-11-23T10:00:00Z",
        to: "2026-11-23T14:00:00Z",
        expected: [
          ["2026-11-23T10:00:00.000Z", "2026-11-23T12:00:00.000Z"],
          ["2026-11-23T13:00:00.000Z", "2026-11-23T14:00:00.000Z"],
        ],
      },
      {
        what: "always working (the default) is the whole range",
        calendar: { time_zone: "America/Los_Angeles", working_hours: alwaysWorking },
        from: "2026-03-01T00:00:00Z",
        to: "2026-04-01T00:00:00Z",
        expected: [["2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"]],
      },
      {
        what: "no hours at all: nothing",
        calendar: calendar("Europe/Berlin", {}),
        from: "2026-03-01T00:00:00Z",
        to: "2026-04-01T00:00:00Z",
        expected: [],
      },
      {
        what: "an empty range: nothing",
        calendar: { time_zone: "UTC", working_hours: alwaysWorking },
        from: "2026-03-01T00:00:00Z",
        to: "2026-03-01T00:00:00Z",
        expected: [],
      },
    ];
    for (const { what, calendar: c, from, to, expected } of cases)
      it(what, () => {
        assert.deepEqual(iso(workingIntervals(c, new Date(from), new Date(to))), expected);
      });

    it(`refuses a range over ${maxRangeDays} days`, () => {
      const from = new Date("2026-01-01T00:00:00Z");
      const to = new Date(from.getTime() + (maxRangeDays + 1) * 86_400_000);
      assert.throws(() => workingIntervals({ time_zone: "UTC", working_hours: alwaysWorking }, from, to), RangeError);
    });
  });

  describe("isWorkingAt()", () => {
    const plumber = calendar("America/New_York", { ...weekdays("08:00", "17:00"), sunday: day("02:30", "05:00") });
    const cases: [string, boolean][] = [
      ["2026-11-23T13:00:00Z", true], // Monday 08:00 EST: the start is included
      ["2026-11-23T12:59:59Z", false],
      ["2026-11-23T21:59:59Z", true],
      ["2026-11-23T22:00:00Z", false], // 17:00 EST: the end is not
      ["2026-11-21T15:00:00Z", false], // Saturday
      ["2026-03-08T07:29:00Z", false], // spring forward: 03:29 EDT, before the moved start
      ["2026-03-08T07:30:00Z", true], // 03:30 EDT
    ];
    for (const [at, expected] of cases)
      it(`${at} → ${String(expected)}`, () => {
        assert.equal(isWorkingAt(plumber, new Date(at)), expected);
      });
  });

  describe("offsets", () => {
    const cases: [string, string, number][] = [
      ["America/New_York", "2026-01-15T12:00:00Z", -300],
      ["America/New_York", "2026-07-15T12:00:00Z", -240],
      ["Asia/Kolkata", "2026-07-15T12:00:00Z", 330],
      ["Asia/Kathmandu", "2026-07-15T12:00:00Z", 345],
      ["UTC", "2026-07-15T12:00:00Z", 0],
    ];
    for (const [zone, at, minutes] of cases)
      it(`${zone} at ${at} is ${minutes} minutes from UTC`, () => {
        assert.equal(offsetMinutes(zone, Date.parse(at)), minutes);
      });

    it("reads a local time back as the instant it names (Kolkata 09:00 is 03:30 UTC)", () => {
      assert.equal(
        new Date(localToInstant("Asia/Kolkata", Date.UTC(2026, 10, 23, 9))).toISOString(),
        "2026-11-23T03:30:00.000Z",
      );
    });
  });
});
