// An interval flag (`--window START/END`): one ISO 8601 interval for two date-time body flags of the command table,
// or START alone for the length the contract gives the interval. START alone ends in START's own offset, as the
// server writes a window: the job's local clock is the one the start was copied from. Each end must be its body
// flag's date-time with an offset, and END after START; anything else is a usage error before anything is sent.
import { Option } from "commander";
import { echoed, usageError } from "./errors.js";
import type { FlagSpec, OperationSpec } from "./operation-spec.js";

export interface IntervalFlag {
  /** The flag's name without dashes (`window`). */
  flag: string;
  /** The body flags (command-table names) it sets: the interval's start and end. */
  start: string;
  end: string;
  /** START alone means the interval of this many hours from it. */
  hours: number;
  /** What the interval is, for --help (the forms it takes are added). */
  description: string;
}

const hourMs = 3_600_000;

function flagOf(spec: OperationSpec, name: string): FlagSpec {
  const flag = spec.flags.find((f) => f.flag === name);
  if (!flag) throw new Error(`${spec.operationId}: the interval's flag --${name} is not in the command table`);
  return flag;
}

/** The commander option: its help says both forms, and commander refuses it beside the flags it stands for. */
export function intervalOption(spec: OperationSpec, interval: IntervalFlag): Option {
  const [start, end] = [flagOf(spec, interval.start), flagOf(spec, interval.end)];
  const forms = `START/END, an ISO 8601 interval of two date-times with their offset, or START alone for the ${String(interval.hours)} hours from it (in its offset); instead of --${start.flag} and --${end.flag}`;
  return new Option(`--${interval.flag} <start/end>`, `${interval.description}: ${forms}`).conflicts(
    [start, end].map((f) => new Option(`--${f.flag} <value>`).attributeName()),
  );
}

/** `2026-11-24T10:00:00-06:00` + 2 h in the same offset (`Z` stays `Z`): `2026-11-24T12:00:00-06:00`. */
function laterInItsOffset(start: string, hours: number): string {
  const offset = /(Z|[+-]\d{2}:\d{2})$/.exec(start)![1];
  const minutes =
    offset === "Z" ? 0 : (offset.startsWith("-") ? -1 : 1) * (+offset.slice(1, 3) * 60 + +offset.slice(4));
  const local = new Date(Date.parse(start) + hours * hourMs + minutes * 60_000).toISOString();
  return `${local.slice(0, 19)}${offset}`;
}

/** The body flags' values (keyed by flag name) for the interval given on the command line. */
export function expandInterval(spec: OperationSpec, interval: IntervalFlag, raw: string): Record<string, string> {
  const [start, end] = [flagOf(spec, interval.start), flagOf(spec, interval.end)];
  const refuse = (why: string) =>
    usageError(
      `--${interval.flag} ${why} (got ${echoed(raw)}): give START/END, e.g. 2026-11-24T10:00:00-06:00/2026-11-24T12:00:00-06:00, or START alone for the ${String(interval.hours)} hours from it`,
    );
  const parts = raw.split("/");
  if (parts.length > 2) throw refuse("is not one interval");
  const isDateTime = (text: string, flag: FlagSpec) =>
    (flag.pattern === undefined || new RegExp(flag.pattern, "u").test(text)) && !Number.isNaN(Date.parse(text));
  if (!isDateTime(parts[0], start)) throw refuse("must start with a date-time with its offset");
  const values = { [start.flag]: parts[0], [end.flag]: parts[1] ?? laterInItsOffset(parts[0], interval.hours) };
  if (parts.length === 2 && !isDateTime(parts[1], end)) throw refuse("must end with a date-time with its offset");
  if (Date.parse(values[end.flag]) <= Date.parse(parts[0])) throw refuse("must end after it starts");
  return values;
}
