// What `npm run mock` corrects in Prism's static answers so they do not contradict the contract's own words: the
// replay header only on a real replay, and a problem body whose status and title match the status sent.
import { STATUS_CODES } from "node:http";

/** Remembers the orders the mock has "created": a repeated Idempotency-Key or reference_id is a replay. */
export function createReplayMemory(limit = 10_000) {
  const seen = new Set<string>();
  return {
    /** True when this request repeats an earlier one (same key, same Idempotency-Key or reference_id). */
    isReplay(apiKey: string, idempotencyKey: string | undefined, referenceId: string | undefined): boolean {
      const marks = [
        ...(idempotencyKey ? [`${apiKey}\0key\0${idempotencyKey}`] : []),
        ...(referenceId ? [`${apiKey}\0ref\0${referenceId}`] : []),
      ];
      const replay = marks.some((mark) => seen.has(mark));
      if (seen.size >= limit) seen.clear(); // a mock, not a store: forgetting beats growing without bound
      for (const mark of marks) seen.add(mark);
      return replay;
    },
  };
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "_");

/** A problem body answered with another status (Prism's `default` example under `Prefer: code=…`) gets that
 * status's title, code and type; a matching body is returned as it is. */
export function problemForStatus(body: unknown, status: number): unknown {
  if (!body || typeof body !== "object" || !("status" in body) || body.status === status) return body;
  const title = STATUS_CODES[status] ?? `HTTP ${status}`;
  const code = slug(title);
  return {
    ...body,
    type: `https://dispatch.example/problems/${code.replaceAll("_", "-")}`,
    title,
    status,
    code,
    detail: `A mock ${status} (Prefer: code=${status}); the contract documents no example for it here.`,
  };
}
