// `--query <JMESPath>`: one filter applied to every command's result in one place (cli/index.ts), as gh's --jq.
import { search } from "jmespath";
import { usageError } from "./errors.js";

/** Throws a usage error (exit 2, nothing sent) when the expression does not parse. */
export function checkQuery(expression: string): void {
  try {
    search({}, expression);
  } catch (err) {
    // Evaluating against {} may fail on types (length(null)); only lexer and parser errors mean a bad expression.
    if (!["LexerError", "ParserError"].includes((err as Error).name)) return;
    throw usageError(`--query is not a valid JMESPath expression: ${(err as Error).message}`);
  }
}

export function applyQuery(data: unknown, expression: string): unknown {
  return search(data, expression) as unknown;
}
