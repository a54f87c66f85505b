// CLI errors carry the process exit code; every failure path ends in one CliError.

/** Documented exit codes of `dispatch` (the table in cli/README.md and `dispatch --help`). */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  network: 3,
  unauthorized: 4,
  paymentRequired: 5,
  notFound: 6,
  conflict: 7,
  clientError: 8,
  rateLimited: 9,
  serverError: 10,
  /** `orders watch`: the order ended cancelled. */
  cancelled: 11,
} as const;

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

/** Raised when arguments are invalid, before any request is sent. */
export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}

export function exitCodeForStatus(status: number): number {
  const byStatus: Record<number, number> = {
    401: ExitCode.unauthorized,
    402: ExitCode.paymentRequired,
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
