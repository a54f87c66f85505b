// Says once per process, on stderr, that the API answered with a `Deprecation` header (RFC 9745), so an
// integrator hears about a deprecated operation, parameter or field long before its `Sunset`.
import type { Middleware } from "openapi-fetch";

export interface DeprecationNotice {
  method: string;
  url: string;
  /** The `Deprecation` value, `@<unix seconds>`. */
  deprecation: string;
  /** The `Sunset` HTTP-date, when sent. */
  sunset: string | null;
  /** The documentation the `rel="deprecation"` link points to, absolute. */
  link: string | null;
}

let warned = false;

/** The one line the SDK writes by default. */
export function formatDeprecationNotice(notice: DeprecationNotice): string {
  const since = new Date(Number(notice.deprecation.slice(1)) * 1000).toISOString().slice(0, 10);
  const sunset = notice.sunset
    ? `; it may stop working after ${new Date(notice.sunset).toISOString().slice(0, 10)}`
    : "";
  const docs = notice.link ? ` (${notice.link})` : "";
  return `dispatch: ${notice.method} ${new URL(notice.url).pathname} uses something deprecated since ${since}${sunset}${docs}`;
}

/** What the notice reads of an answer: a fetch Response, or any answer with its headers and URL. */
type DeprecatedAnswer = Pick<Response, "url"> & { headers: Pick<Headers, "get"> };

function deprecationLink(response: DeprecatedAnswer): string | null {
  const match = /<([^>]+)>\s*;[^,]*rel="?deprecation"?/.exec(response.headers.get("link") ?? "");
  return match ? new URL(match[1], response.url || undefined).href : null;
}

/** Reports `response` through `report` (default: stderr) when it carries `Deprecation` and none did before. */
export function noticeDeprecation(
  method: string,
  url: string,
  response: DeprecatedAnswer,
  report?: (notice: DeprecationNotice) => void,
): void {
  const deprecation = response.headers.get("deprecation");
  if (!deprecation || warned) return;
  warned = true;
  const notice = { method, url, deprecation, sunset: response.headers.get("sunset"), link: deprecationLink(response) };
  if (report) report(notice);
  else process.stderr.write(`${formatDeprecationNotice(notice)}\n`);
}

/** The SDK's middleware: every answer goes through noticeDeprecation. */
export function deprecationMiddleware(report?: (notice: DeprecationNotice) => void): Middleware {
  return {
    onResponse({ request, response }) {
      noticeDeprecation(request.method, request.url, response, report);
      return undefined;
    },
  };
}

/** Tests only: forget that the warning was given. */
export function resetDeprecationWarning(): void {
  warned = false;
}
