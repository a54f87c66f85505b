// A list's table as the contract chooses it (`x-cli-table`): each item reduced to the columns a person decides
// from, in order, each value as text (money in dollars, times in the item's own zone with its offset, a window as
// its day and hours), so a table on a terminal leads with them and a piped table holds no JSON. Only `--output
// table` uses it: json, ndjson and yaml print every field, and a `--query` reads the answer as the server sent it.
import type { ColumnSpec, TableSpec } from "./operation-spec.js";

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a dotted path, or undefined. */
const at = (item: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((value, key) => (isItem(value) ? value[key] : undefined), item);

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usd = (cents: unknown) => (typeof cents === "number" ? dollars.format(cents / 100) : "");

/** `2026-11-28 09:45 -09:00`: the instant on the zone's clock (as given, without a zone). */
function localTime(value: unknown, zone: string | undefined): string {
  if (typeof value !== "string") return "";
  const instant = new Date(value);
  if (!zone || Number.isNaN(instant.getTime())) return value;
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const offset = part("timeZoneName").replace("GMT", "") || "+00:00";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} ${offset}`;
}

/** `2026-11-28 10:00-12:00 -09:00`: a window as its bounds are written (already in the job's offset). */
function window(value: unknown): string {
  if (!isItem(value) || typeof value.start !== "string" || typeof value.end !== "string") return "";
  const bound = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const [start, end] = [bound.exec(value.start), bound.exec(value.end)];
  if (!start || !end) return `${value.start}/${value.end}`;
  return `${start[1]} ${start[2]}-${end[2]} ${start[3] === "Z" ? "+00:00" : start[3]}`;
}

const words = (value: unknown, keys: string[]) =>
  isItem(value) ? keys.map((key) => value[key]).filter((part) => typeof part === "string" && part) : [];

/** `Anchorage AK 99501`: a location's city, state and ZIP. */
const place = (value: unknown) => words(value, ["city", "state", "zip"]).join(" ");

/** `1 Main St, Back office`: its street address and site name, when the answer has them. */
const street = (value: unknown) => words(value, ["address", "name"]).join(", ");

/** `declined $1,500.00`: how the revision ended (or that it is pending) and its amount. */
const revision = (value: unknown) => (isItem(value) ? `${String(value.status)} ${usd(value.amount_cents)}` : "");

function text(value: unknown, column: ColumnSpec, zone: string | undefined): string {
  switch (column.format) {
    case "usd":
      return usd(value);
    case "time":
      return localTime(value, zone);
    case "window":
      return window(value);
    case "place":
      return place(value);
    case "street":
      return street(value);
    case "revision":
      return revision(value);
    case "list":
      return Array.isArray(value) ? value.join(",") : "";
    default:
      if (value === null || value === undefined) return "";
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** One item as its table row: the columns' values as text, keyed by header. */
function rowOf(item: unknown, table: TableSpec): Item {
  const zone = table.zone ? at(item, table.zone) : undefined;
  const row: Item = {};
  for (const column of table.columns)
    row[column.header] = text(at(item, column.path), column, typeof zone === "string" ? zone : undefined);
  return row;
}

/** A page (`{items, next_cursor}`) or a list of items (`--paginate`) with its items as table rows; else as is. */
export function tableRows(data: unknown, table: TableSpec): unknown {
  if (Array.isArray(data)) return data.map((item) => rowOf(item, table));
  if (isItem(data) && Array.isArray(data.items))
    return { ...data, items: data.items.map((item: unknown) => rowOf(item, table)) };
  return data;
}
