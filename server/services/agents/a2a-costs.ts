// What an A2A request costs the rate limiter, read from its body alone: the route prices a request before the A2A
// service (and its SDK, loaded on first use) sees it.
import { isRecord } from "../shared/is-record.js";
import { costsOf, type CapabilityCost } from "./run-capability.js";

/** The skills a JSON-RPC body asks for (data parts `{skill, input}`), for the rate limiter. */
function skillsOf(body: unknown): string[] {
  const member = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined);
  const parts = member(member(member(body, "params"), "message"), "parts");
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part: unknown) => {
    const data = member(part, "data");
    const skill = member(data, "skill") ?? member(member(data, "data"), "skill");
    return typeof skill === "string" ? [skill] : [];
  });
}

/** One point per request, plus the probe policy's point when the message runs the probe skill. */
export const a2aCosts = (body: unknown): CapabilityCost[] => costsOf(1, skillsOf(body));
