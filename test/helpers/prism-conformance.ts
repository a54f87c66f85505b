// The one check of the Prism validating-proxy suites: no `sl-violations` header, and the expected status.
import assert from "node:assert/strict";

/** An openapi-fetch result (its `response`, and `error` to show when the status is not the expected one). */
export interface ProxiedResult {
  response: Response;
  error?: unknown;
}

export function assertConforms({ response, error }: ProxiedResult, status: number): void {
  const violations = response.headers.get("sl-violations");
  assert.equal(violations, null, `contract violation: ${violations}`);
  assert.equal(response.status, status, JSON.stringify(error));
}
