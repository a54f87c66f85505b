// Renders API answers as plain-text tables for humans (`--output table`).

type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === "object" && value !== null && !Array.isArray(value);

/** Shortens only prose: a value without spaces (id, URL, seal) is printed whole so it can be copied. */
function cell(value: unknown, max = 60): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value); // eslint-disable-line @typescript-eslint/no-base-to-string -- objects took the branch before;
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max && flat.includes(" ") ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Column header: camelCase and snake_case words kept apart (`billedHourlyRate` -> `BILLED_HOURLY_RATE`). */
const headerOf = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

const isRowList = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isObject);

/** The key of the one list of objects an answer carries (`{ data: [...] }`, `{ events: [...] }`), if exactly one. */
function listKeyOf(data: Row): string | null {
  const keys = Object.keys(data).filter((k) => isRowList(data[k]));
  return keys.length === 1 ? keys[0] : null;
}

function rowsTable(rows: Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return grid(
    columns.map(headerOf),
    rows.map((r) => columns.map((c) => cell(r[c], 40))),
  );
}

function grid(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Flattens nested objects into dotted keys (`availability.matched_contractors`). */
function flatten(value: Row, prefix = ""): [string, unknown][] {
  return Object.entries(value).flatMap(([key, inner]): [string, unknown][] => {
    const name = prefix ? `${prefix}.${key}` : key;
    return isObject(inner) && Object.keys(inner).length > 0 ? flatten(inner, name) : [[name, inner]];
  });
}

export function renderTable(data: unknown): string {
  if (typeof data === "string") return data;
  if (isRowList(data)) return rowsTable(data);
  if (!isObject(data)) return cell(data, Number.MAX_SAFE_INTEGER);
  // An object holding one list: its other fields as FIELD/VALUE, then the list as a table.
  const listKey = listKeyOf(data);
  const { [listKey ?? ""]: list, ...fields } = data;
  const fieldGrid = Object.keys(fields).length
    ? grid(
        ["FIELD", "VALUE"],
        flatten(listKey ? fields : data).map(([k, v]) => [k, cell(v)]),
      )
    : "";
  if (!listKey) return fieldGrid;
  return [fieldGrid, `${listKey.toUpperCase()}:\n${rowsTable(list as Row[])}`].filter(Boolean).join("\n\n");
}
