// How deep a parsed JSON value nests, measured without recursion: a hostile body must not exhaust the stack of
// this check, nor (once refused) of the SDKs that walk it recursively afterwards.

/** True when `value` nests objects and arrays more than `limit` levels deep (a scalar is 0, `{}` and `[]` are 1). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node))
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}
