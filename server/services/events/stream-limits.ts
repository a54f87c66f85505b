// What an open stream may cost: streams per key, a lifetime, a write buffer, and no life after its key is revoked.
// All checked by the hub's poll tick over the open streams, so a stream owns no timer of its own to leak.
import type { PassThrough } from "node:stream";
import { DomainError } from "../errors.js";
import { endWith, isGone, writeComment, type Subscriber } from "./subscriber.js";

export interface StreamLimits {
  perKey: number;
  /** A stream ends after this long; the client resumes with Last-Event-ID. */
  maxMs: number;
  heartbeatMs: number;
  /** Bytes a stream may have waiting for its client before it is cut (the client is not reading). */
  maxBufferedBytes: number;
  /** How long an ended stream may take to reach a client before its connection is cut. */
  endGraceMs: number;
}

/** A slot frees when one of the key's streams closes, which cannot be foreseen: a short wait, then retry. */
const fullRetryAfterSeconds = 5;

/** Takes one of the key's stream slots now (before any await, so concurrent opens cannot overshoot the cap). */
export function reserveSlot(perKey: Map<string, number>, keyId: string, cap: number): () => void {
  const held = perKey.get(keyId) ?? 0;
  if (held >= cap)
    throw new DomainError(
      "rate_limited",
      "too_many_streams",
      `This key already has ${cap} open event streams (the most one key may hold); close one or retry later.`,
      { retryAfterSeconds: fullRetryAfterSeconds },
    );
  perKey.set(keyId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (perKey.get(keyId) ?? 1) - 1;
    if (left > 0) perKey.set(keyId, left);
    else perKey.delete(keyId);
  };
}

export const resumeHint = "reconnect with Last-Event-ID to resume";

/** Streams ended by the hub, by when they must have reached their client. */
export type Ending = Map<PassThrough, number>;

/** Cuts a stream's connection (an error makes the server destroy the socket rather than wait on it). */
const cut = (stream: PassThrough, why: string) => stream.destroy(new Error(why));

/** Ends the stream gracefully, and cuts it if the client has not taken the end within the grace period. */
function endSoon(sub: Subscriber, reason: string, ending: Ending, limits: StreamLimits, now: number): void {
  endWith(sub, reason);
  if (!sub.stream.destroyed) ending.set(sub.stream, now + limits.endGraceMs);
}

/** One pass over the open streams: lifetime, unread backlog, heartbeat; then the ended ones' grace. */
export function sweepStreams(subs: Iterable<Subscriber>, ending: Ending, limits: StreamLimits, now: number): void {
  for (const sub of [...subs]) {
    if (sub.stream.writableLength > limits.maxBufferedBytes) {
      sub.release();
      cut(sub.stream, "event stream client is not reading");
    } else if (now - sub.openedAt >= limits.maxMs)
      endSoon(sub, `stream lifetime reached; ${resumeHint}`, ending, limits, now);
    else if (now - sub.lastWriteAt >= limits.heartbeatMs) writeComment(sub, "heartbeat");
  }
  for (const [stream, deadline] of ending) {
    if (stream.destroyed) ending.delete(stream);
    else if (deadline <= now) {
      ending.delete(stream);
      cut(stream, "ended event stream was not read");
    }
  }
}

export function endRevoked(
  subs: Iterable<Subscriber>,
  revoked: Set<string>,
  ending: Ending,
  limits: StreamLimits,
  now: number,
): void {
  for (const sub of [...subs])
    if (revoked.has(sub.keyId) && !isGone(sub.stream)) endSoon(sub, "key revoked", ending, limits, now);
}
