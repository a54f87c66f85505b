// Turns an API error answer into the CliError the terminal shows: the problem's message (operations named by their
// commands), then what a person needs to act on it (each invalid field, when to retry, how to receive webhooks
// locally).
import { createApiError, type AnswerHead } from "../sdk/errors.js";
import { CliError, exitCodeForStatus } from "./errors.js";
import { withCommandNames } from "./help.js";

interface FieldError {
  pointer?: string;
  message?: string;
}

/** One `  /pointer: message` line per field of a problem's `errors` list. */
export function fieldLines(body: unknown): string[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return (errors as FieldError[]).map((e) => `  ${e.pointer ?? "?"}: ${e.message ?? "invalid"}`);
}

/** Retry-After is seconds (or an HTTP date); shown as the server sent it so a script can rely on the same value. */
function retryAfterNote(response: AnswerHead): string {
  const value = response.headers.get("retry-after");
  return value === null ? "" : ` (Retry-After: ${value}${/^\d+$/.test(value) ? " s" : ""})`;
}

// A loopback or private callback_url is refused by design; a developer testing locally wants the event stream instead.
function callbackHint(body: unknown): string[] {
  const errors = (body as { errors?: FieldError[] } | null)?.errors;
  if (!Array.isArray(errors) || !errors.some((e) => e.pointer === "/callback_url")) return [];
  return [
    "hint: callback_url must resolve to a public address. To receive this account's events on this machine, run",
    "  'dispatch listen --forward-to http://127.0.0.1:8080/webhooks' (signed like webhooks), or order with a test key",
    "  from a server in sandbox mode (DISPATCH_SANDBOX=1 lets test keys call back to loopback; WEBHOOK_ALLOW_PRIVATE=true",
    "  lets every key call back anywhere).",
  ];
}

/** The commands each kind of key is for, said when a key is used on the other side (a 403 with `key_kind`). */
const commandsOfKeyKind: Readonly<Record<string, string>> = {
  contractor: "use 'dispatch offers' / 'dispatch jobs'",
  customer:
    "use 'dispatch quote' / 'dispatch order' / 'dispatch orders'; a contractor key comes from an operator ('dispatch admin contractors key')",
};

/** One line for a key used on the other side: which kind it is and which commands fit it. */
function wrongSideMessage(status: number, body: unknown): string | undefined {
  const kind = (body as { key_kind?: unknown } | null)?.key_kind;
  const commands = status === 403 && typeof kind === "string" ? commandsOfKeyKind[kind] : undefined;
  return commands && `403 Forbidden: this is a ${kind as string} key: ${commands}`;
}

export function apiFailure(response: AnswerHead, error: unknown): CliError {
  const err = createApiError(response, error);
  const suffix = err.requestId ? ` (request ${err.requestId})` : "";
  const retry = err.status === 429 || err.status === 503 ? retryAfterNote(response) : "";
  const api = { status: err.status, type: err.type, code: err.code, requestId: err.requestId, body: err.body };
  const details = [...fieldLines(err.body), ...callbackHint(err.body)];
  // The server names operations by operationId; the terminal knows them as commands.
  const message = wrongSideMessage(err.status, err.body) ?? withCommandNames(err.message);
  return new CliError(`${message}${retry}${suffix}`, exitCodeForStatus(err.status), api, details);
}
