// CLI errors carry the process exit code; every failure path ends in one CliError.

/**
 * The one exit-code table of `dispatch`: `ExitCode`, the `dispatch --help` line and cli/README.md's table all come
 * from it (test/unit/cli/errors.test.ts checks the README's rows against `exitCodeTableMarkdown()`).
 */
export const exitCodes = {
  ok: { code: 0, brief: "ok", meaning: "success" },
  unexpected: { code: 1, brief: "unexpected", meaning: "unexpected error" },
  usage: { code: 2, brief: "usage/validation (nothing sent)", meaning: "usage or validation error (nothing was sent)" },
  network: { code: 3, brief: "network error", meaning: "network error (server unreachable, connection refused)" },
  unauthorized: { code: 4, brief: "401", meaning: "401 unauthorized" },
  paymentRequired: { code: 5, brief: "402", meaning: "402 not entitled" },
  notFound: { code: 6, brief: "404", meaning: "404 not found" },
  conflict: { code: 7, brief: "409", meaning: "409 conflict" },
  clientError: { code: 8, brief: "422 and other 4xx", meaning: "422 and any other 4xx (403 has its own, 12)" },
  rateLimited: {
    code: 9,
    brief: "429",
    meaning: "429 rate limited (the message gives `Retry-After`; `--retries n` retries honouring it)",
  },
  serverError: { code: 10, brief: "5xx", meaning: "5xx" },
  cancelled: {
    code: 11,
    brief: "order cancelled ('orders watch')",
    meaning: "`orders watch`: the order ended cancelled",
  },
  forbidden: {
    code: 12,
    brief: "403",
    meaning: "403 forbidden: the key lacks the scope, or is the other kind of key (customer or contractor)",
  },
} as const;

type ExitCodeName = keyof typeof exitCodes;

/** The exit codes by name (`ExitCode.network` is 3). */
export const ExitCode = Object.fromEntries(Object.entries(exitCodes).map(([name, { code }]) => [name, code])) as {
  readonly [K in ExitCodeName]: (typeof exitCodes)[K]["code"];
};

/** `0 ok, 1 unexpected, …`: the short list `dispatch --help` prints, broken into lines of about `width` columns. */
export function exitCodesBrief(width = 100): string {
  const lines = [""];
  for (const { code, brief } of Object.values(exitCodes)) {
    const item = `${String(code)} ${brief}`;
    if (lines.at(-1)!.length + item.length + 2 > width) lines.push("");
    lines[lines.length - 1] += lines.at(-1) ? `, ${item}` : item;
  }
  return lines.join(",\n  ");
}

/** cli/README.md's "Exit codes" table, row for row. */
export function exitCodeTableMarkdown(): string {
  const rows = Object.values(exitCodes).map(({ code, meaning }) => `| ${String(code)} | ${meaning} |`);
  return ["| code | meaning |", "|---|---|", ...rows].join("\n");
}

export interface ApiErrorDetails {
  status: number;
  type: string | null;
  code: string | null;
  requestId: string | null;
  body: unknown;
}

/** Raised for anything that ends the command unsuccessfully; `exitCode` is what the process exits with. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly api: ApiErrorDetails | null;
  /** Lines printed under the message for a person (each invalid field, a hint); JSON errors carry the body instead. */
  readonly details: readonly string[];

  constructor(message: string, exitCode: number, api: ApiErrorDetails | null = null, details: readonly string[] = []) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
    this.api = api;
    this.details = details;
  }
}

/**
 * A value a message repeats (`got "…"`), as JSON: whole when short, else its first characters and its length, so a
 * long description or body is not printed back.
 */
export function echoed(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const chars = Array.from(text);
  if (chars.length <= 80) return text;
  const size = typeof value === "string" ? Array.from(value).length : chars.length;
  return `${chars.slice(0, 60).join("")}…${typeof value === "string" ? '"' : ""} (${String(size)} characters)`;
}

/** Raised when arguments are invalid, before any request is sent. */
export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}

export function exitCodeForStatus(status: number): number {
  const byStatus: Record<number, number> = {
    401: ExitCode.unauthorized,
    402: ExitCode.paymentRequired,
    403: ExitCode.forbidden,
    404: ExitCode.notFound,
    409: ExitCode.conflict,
    429: ExitCode.rateLimited,
  };
  if (byStatus[status]) return byStatus[status];
  if (status >= 500) return ExitCode.serverError;
  if (status >= 400) return ExitCode.clientError;
  return ExitCode.unexpected;
}

interface SocketCause {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  errors?: SocketCause[];
}

/** Why a fetch failed, as the socket said it (`ECONNREFUSED 127.0.0.1:8080`), not undici's bare "fetch failed". */
export function fetchFailure(err: unknown): string {
  const outer = (err as { cause?: SocketCause }).cause;
  const cause = outer?.errors?.[0] ?? outer; // Happy Eyeballs: an AggregateError of each address's failure
  if (cause?.code && cause.address) return `${cause.code} ${cause.address}${cause.port ? `:${cause.port}` : ""}`;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** Raised when the server could not be reached (DNS, refused connection, reset, timeout). */
export function networkError(err: unknown, baseUrl: string): CliError {
  return new CliError(`network error: cannot reach ${baseUrl} (${fetchFailure(err)})`, ExitCode.network);
}
