// Renders API answers as plain-text tables for humans (`--output table`), fitted to the terminal's width.

type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === "object" && value !== null && !Array.isArray(value);

/** One line of text; nothing is ever cut, so ids, URLs and seals can always be copied whole. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value); // eslint-disable-line @typescript-eslint/no-base-to-string -- objects took the branch before;
  return text.replace(/\s+/g, " ").trim();
}

/** Greedy word wrap; a word longer than the width (an id, a URL) gets a line of its own, whole. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}

/** Column header: camelCase and snake_case words kept apart (`billedHourlyRate` -> `BILLED_HOURLY_RATE`). */
const headerOf = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

const isRowList = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isObject);

/** The key of the one list of objects an answer carries (`{ data: [...] }`, `{ events: [...] }`), if exactly one. */
function listKeyOf(data: Row): string | null {
  const keys = Object.keys(data).filter((k) => isRowList(data[k]));
  return keys.length === 1 ? keys[0] : null;
}

const gap = "  ";

const isPlace = (value: unknown): value is Row =>
  isObject(value) && (typeof value.state === "string" || typeof value.city === "string");

/** A nested value in one list cell: a place as `city, state`, a list of objects as its length, else compact JSON. */
function listCell(value: unknown): string {
  if (isPlace(value)) return [value.city, value.state].filter((part) => typeof part === "string" && part).join(", ");
  if (Array.isArray(value) && value.some(isObject)) return `(${String(value.length)})`;
  return cell(value);
}

const widthOf = (widths: number[]) => widths.reduce((sum, w) => sum + w, 0) + gap.length * (widths.length - 1);

/**
 * The columns of a list that fit the width, as `kubectl get` shows a summary (`-o json`/`-o yaml` print every field):
 * columns holding JSON go first, then columns from the right. Null when fewer than two would remain.
 */
function fittingColumns(widths: number[], json: (i: number) => boolean, width: number): number[] | null {
  const kept = widths.map((_, i) => i);
  const rightFirst = [...kept].reverse();
  const dropOrder = [...rightFirst.filter(json), ...rightFirst.filter((i) => !json(i))];
  for (const drop of dropOrder) {
    if (kept.length < 2) return null;
    if (widthOf(kept.map((i) => widths[i])) <= width) return kept;
    kept.splice(kept.indexOf(drop), 1);
  }
  return null;
}

/** Rows side by side when they fit the width (dropping columns if need be); else each row as a KEY value block. */
function rowsTable(rows: Row[], width: number | undefined): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const header = columns.map(headerOf);
  // Piped output keeps every value whole; a terminal gets the summary cells.
  const cells = rows.map((r) => columns.map((c) => (width === undefined ? cell : listCell)(r[c])));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  if (width === undefined || widthOf(widths) <= width) return grid(header, cells, widths);
  const json = (i: number) => rows.some((r) => isObject(r[columns[i]]) && !isPlace(r[columns[i]]));
  const kept = fittingColumns(widths, json, width);
  if (kept)
    return grid(
      kept.map((i) => header[i]),
      cells.map((r) => kept.map((i) => r[i])),
      kept.map((i) => widths[i]),
    );
  return rows
    .map((r) =>
      pairs(
        flatten(r).map(([k, v]) => [headerOf(k), cell(v)]),
        width,
      ),
    )
    .join("\n\n");
}

function grid(header: string[], rows: string[][], widths: number[]): string {
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join(gap)
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** KEY  value lines, the values wrapped at spaces into the width left after the key column. */
function pairs(entries: [string, string][], width: number | undefined): string {
  const keyWidth = Math.max(...entries.map(([k]) => k.length));
  const room = width === undefined ? Number.MAX_SAFE_INTEGER : Math.max(width - keyWidth - gap.length, 20);
  const indent = " ".repeat(keyWidth + gap.length);
  return entries
    .map(([key, value]) =>
      wrap(value, room)
        .map((text, i) => `${i === 0 ? key.padEnd(keyWidth) + gap : indent}${text}`.trimEnd())
        .join("\n"),
    )
    .join("\n");
}

/** Flattens nested objects into dotted keys (`availability.matched_contractors`). */
function flatten(value: Row, prefix = ""): [string, unknown][] {
  return Object.entries(value).flatMap(([key, inner]): [string, unknown][] => {
    const name = prefix ? `${prefix}.${key}` : key;
    return isObject(inner) && Object.keys(inner).length > 0 ? flatten(inner, name) : [[name, inner]];
  });
}

/** `width`: the terminal's columns; undefined (output piped) prints every line whole, however long. */
export function renderTable(data: unknown, width?: number): string {
  if (typeof data === "string") return data;
  if (isRowList(data)) return rowsTable(data, width);
  if (!isObject(data)) return cell(data);
  // An object holding one list: its other fields as FIELD/VALUE, then the list as a table.
  const listKey = listKeyOf(data);
  const { [listKey ?? ""]: list, ...fields } = data;
  const entries = flatten(listKey ? fields : data).map(([k, v]): [string, string] => [k, cell(v)]);
  const fieldGrid = entries.length ? pairs([["FIELD", "VALUE"], ...entries], width) : "";
  if (!listKey) return fieldGrid;
  return [fieldGrid, `${listKey.toUpperCase()}:\n${rowsTable(list as Row[], width)}`].filter(Boolean).join("\n\n");
}
