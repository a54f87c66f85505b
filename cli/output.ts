// The only module that writes to stdout/stderr: data on stdout, one-line diagnostics on stderr.
import { CliError, echoed, ExitCode, usageError } from "./errors.js";
import { currentIo } from "./io.js";

export const outputFormats = ["json", "ndjson", "table", "yaml"] as const;
export type OutputFormat = (typeof outputFormats)[number];

export function writeOut(text: string): void {
  currentIo().stdout.write(text);
}

export function writeErr(text: string): void {
  currentIo().stderr.write(text);
}

/** Columns to fit help and tables in: the terminal's width, none when piped. */
export function terminalWidth(stream: "stdout" | "stderr"): number | undefined {
  const { isTTY, columns } = currentIo()[stream];
  return isTTY ? columns : undefined;
}

/** `--output`, else json when stdout is piped and table on a terminal. */
export function resolveFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return currentIo().stdout.isTTY ? "table" : "json";
  if (!(outputFormats as readonly string[]).includes(value))
    throw usageError(`--output must be one of ${outputFormats.join(", ")} (got ${echoed(value)})`);
  return value as OutputFormat;
}

export async function printData(data: unknown, format: OutputFormat): Promise<void> {
  if (data === undefined || data === null || data === "") return;
  if (typeof data === "string") {
    writeOut(data.endsWith("\n") ? data : `${data}\n`);
    return;
  }
  if (format === "json") {
    writeOut(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  // One compact JSON value per line: a list's items one by one, anything else as a single line.
  if (format === "ndjson") {
    writeOut((Array.isArray(data) ? data : [data]).map((item) => `${JSON.stringify(item)}\n`).join(""));
    return;
  }
  if (format === "yaml") {
    const { stringify } = await import("./yaml.js");
    writeOut(stringify(data));
    return;
  }
  const { renderTable } = await import("./table.js");
  writeOut(`${renderTable(data, terminalWidth("stdout"))}\n`);
}

/** Plain text for humans (config values, completion scripts). */
export function printText(text: string): void {
  writeOut(text.endsWith("\n") ? text : `${text}\n`);
}

function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new CliError(`unexpected error: ${message}`, ExitCode.unexpected);
}

/** Prints one line on stderr (a JSON object with `--output json` or `ndjson`) and returns the exit code. */
export function printError(err: unknown, jsonErrors: boolean): number {
  const error = toCliError(err);
  const line = error.message.replace(/\s*\n\s*/g, " ").trim();
  if (!jsonErrors) {
    writeErr(`dispatch: ${line}\n${error.details.map((d) => `${d}\n`).join("")}`);
    return error.exitCode;
  }
  const api = error.api;
  const body = {
    error: {
      message: line,
      exit_code: error.exitCode,
      ...(error.details.length > 0 && { details: error.details.map((d) => d.trim()) }),
      ...(api && { status: api.status, type: api.type, code: api.code, request_id: api.requestId, body: api.body }),
    },
  };
  writeErr(`${JSON.stringify(body)}\n`);
  return error.exitCode;
}
