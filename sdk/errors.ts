// One error type for the SDK's throwing helper, built by one factory.

/** Raised by `unwrap()` when the API answers with a non-2xx status. */
export class DispatchApiError extends Error {
  readonly status: number;
  /** RFC 9457 problem `type`, the `error` code of 402/OAuth bodies, or null. */
  readonly type: string | null;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    type: string | null;
    code: string | null;
    requestId: string | null;
    body: unknown;
  }) {
    super(init.message);
    this.name = "DispatchApiError";
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

/** Raised when one attempt takes longer than the client's `timeoutMs`. */
export class DispatchTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number) {
    super(`${method} ${url} timed out after ${timeoutMs} ms`);
    this.name = "DispatchTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

interface ErrorBody {
  type?: string;
  title?: string;
  detail?: string;
  code?: string;
  request_id?: string;
  error?: string;
  error_description?: string;
  message?: string;
}

/** What an error needs of an answer: a fetch Response, or any answer with its status and headers. */
export type AnswerHead = Pick<Response, "status" | "statusText"> & { headers: Pick<Headers, "get"> };

/** Builds a DispatchApiError from a failed response and its parsed body. */
export function createApiError(response: AnswerHead, body: unknown): DispatchApiError {
  const b = (body && typeof body === "object" ? body : {}) as ErrorBody;
  const requestId = b.request_id ?? response.headers.get("x-request-id");
  const message = b.detail ?? b.message ?? b.error_description ?? b.title ?? `HTTP ${response.status}`;
  return new DispatchApiError({
    status: response.status,
    message: `${response.status} ${b.title ?? b.error ?? response.statusText}: ${message}`,
    type: b.type ?? b.error ?? null,
    code: b.code ?? b.error ?? null,
    requestId: requestId ?? null,
    body,
  });
}

/** Opt-in throwing helper: returns `data` of an openapi-fetch result or throws DispatchApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  throw createApiError(result.response, result.error);
}
