import { strict as assert } from "node:assert";
import {
  bookableWindows,
  isEvenLocalHour,
  withOffset,
  workedWindows,
} from "../../../../server/services/dispatch/arrival-windows.js";
import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";

const hour = 3_600_000;
const localHour = (text: string) => Number(text.slice(11, 13));

/** The grid's invariants: two-hour windows at even local hours, in order, never overlapping, each text naming its
 * instant. */
function assertGrid(windows: ReturnType<typeof bookableWindows>) {
  windows.forEach((window, i) => {
    assert.equal(window.end - window.start, 2 * hour);
    assert.equal(localHour(window.startText) % 2, 0, window.startText);
    assert.equal(Date.parse(window.startText), window.start);
    assert.equal(Date.parse(window.endText), window.end);
    if (i > 0) assert.ok(window.start >= windows[i - 1].end);
  });
}

describe("arrival windows", () => {
  describe("bookableWindows()", () => {
    it("keeps even local hours across spring-forward, switching offset with the clocks", () => {
      const windows = bookableWindows("America/Chicago", "scheduled", Date.parse("2026-03-07T18:00:00Z"));
      assertGrid(windows);
      const march8 = windows.filter((w) => w.startText.startsWith("2026-03-08")).map((w) => w.startText);
      assert.deepEqual(march8.slice(0, 3), [
        "2026-03-08T00:00:00-06:00",
        "2026-03-08T04:00:00-05:00", // 02:00 does not exist: the window after 00:00 starts at the next even hour
        "2026-03-08T06:00:00-05:00",
      ]);
    });

    it("keeps even local hours across fall-back without overlapping windows", () => {
      const windows = bookableWindows("America/New_York", "scheduled", Date.parse("2026-10-31T12:00:00Z"));
      assertGrid(windows);
      const november1 = windows.filter((w) => w.startText.startsWith("2026-11-01")).map((w) => w.startText);
      assert.deepEqual(november1.slice(0, 3), [
        "2026-11-01T00:00:00-04:00",
        "2026-11-01T02:00:00-05:00",
        "2026-11-01T04:00:00-05:00",
      ]);
    });

    it("offers an emergency the windows starting within 4 hours, until 30 minutes before each one's end", () => {
      const at = (local: string) => Date.parse(`2026-06-10T${local}:00-05:00`);
      const starts = (now: number) => bookableWindows("America/Chicago", "emergency", now).map((w) => w.startText);
      assert.deepEqual(starts(at("10:10")), [
        "2026-06-10T10:00:00-05:00",
        "2026-06-10T12:00:00-05:00",
        "2026-06-10T14:00:00-05:00",
      ]);
      assert.deepEqual(starts(at("11:31")), ["2026-06-10T12:00:00-05:00", "2026-06-10T14:00:00-05:00"]);
    });

    it("offers routine work 3 days and scheduled work 14 days of windows, and the one under way", () => {
      const now = Date.parse("2026-06-10T12:00:00Z"); // 07:00 in Chicago: 06–08 is bookable until 07:30
      assert.equal(bookableWindows("America/Chicago", "routine", now).length, 37);
      assert.equal(bookableWindows("America/Chicago", "scheduled", now).length, 169);
    });
  });

  describe("workedWindows()", () => {
    it("keeps only the windows a contractor works whole, none on its day off, each with its local day", () => {
      const mornings = [{ start: "08:00", end: "11:00" }];
      const calendar = {
        time_zone: "America/Anchorage",
        working_hours: { ...alwaysWorking, monday: mornings, tuesday: mornings, sunday: [] },
      };
      const now = Date.parse("2026-06-12T20:00:00Z"); // a Friday
      const worked = workedWindows(calendar, "America/Anchorage", now);
      const monday = worked.filter((w) => w.day === "2026-06-15").map((w) => w.window.startText);
      assert.deepEqual(monday, ["2026-06-15T08:00:00-08:00"]); // 10–12 is not worked whole
      assert.equal(worked.filter((w) => w.day === "2026-06-14").length, 0); // Sunday off
      assert.equal(worked.filter((w) => w.day === "2026-06-13").length, 12); // Saturday all day
    });

    it("counts a window in the contractor's own day when its zone differs from the job's", () => {
      const calendar = { time_zone: "America/Los_Angeles", working_hours: alwaysWorking };
      const worked = workedWindows(calendar, "America/Chicago", Date.parse("2026-06-12T20:00:00Z"));
      const midnight = worked.find((w) => w.window.startText === "2026-06-13T00:00:00-05:00");
      assert.equal(midnight?.day, "2026-06-12"); // 22:00 in Los Angeles
      const two = worked.find((w) => w.window.startText === "2026-06-13T02:00:00-05:00");
      assert.equal(two?.day, "2026-06-13");
    });

    it("works a calendar out once: the same hours read afresh share it, other hours do not", () => {
      const mornings = [{ start: "08:00", end: "12:00" }];
      const hours = () => ({ time_zone: "America/Denver", working_hours: { ...alwaysWorking, monday: mornings } });
      const now = Date.parse("2026-06-12T20:00:00Z");
      const first = workedWindows(hours(), "America/Denver", now);
      assert.equal(workedWindows(hours(), "America/Denver", now), first); // a new object, the same hours
      const other = { ...hours(), working_hours: { ...alwaysWorking, monday: [{ start: "09:00", end: "12:00" }] } };
      const theirs = workedWindows(other, "America/Denver", now);
      assert.notEqual(theirs, first);
      const monday = (worked: typeof first) =>
        worked.filter((w) => w.day === "2026-06-15").map((w) => w.window.startText);
      assert.deepEqual(monday(first), ["2026-06-15T08:00:00-06:00", "2026-06-15T10:00:00-06:00"]);
      assert.deepEqual(monday(theirs), ["2026-06-15T10:00:00-06:00"]);
      assert.notEqual(workedWindows(hours(), "America/Chicago", now), first); // another job zone
    });
  });

  it("writes instants in the zone's offset and knows its even hours", () => {
    assert.equal(withOffset("America/Chicago", Date.parse("2026-01-05T16:00:00Z")), "2026-01-05T10:00:00-06:00");
    assert.equal(withOffset("Asia/Kolkata", Date.parse("2026-01-05T16:00:00Z")), "2026-01-05T21:30:00+05:30");
    assert.ok(isEvenLocalHour("America/Chicago", Date.parse("2026-01-05T16:00:00Z")));
    assert.ok(!isEvenLocalHour("America/New_York", Date.parse("2026-01-05T16:00:00Z")));
  });
});
