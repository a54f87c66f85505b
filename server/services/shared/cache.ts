// An in-memory read cache dropped on a table-change notice; a read that raced a change is not stored.
import type { ChangeFeed } from "../../db/change-feed.js";

export interface InvalidatedCache<V> {
  get(key: string, load: () => Promise<V | null>): Promise<V | null>;
}

/** Caches found values for `ttlMs` at most; bypassed while the change feed cannot hear other instances. */
export function createInvalidatedCache<V>(
  feed: ChangeFeed | null,
  table: string,
  ttlMs: number,
  maxEntries = 10_000,
): InvalidatedCache<V> {
  const entries = new Map<string, { value: V; at: number }>();
  let generation = 0;
  feed?.on((changed) => {
    if (changed === table || changed === "*") {
      generation++;
      entries.clear();
    }
  });
  return {
    async get(key, load) {
      const hit = entries.get(key);
      if (feed?.live && hit && Date.now() - hit.at < ttlMs) return hit.value;
      const seen = generation;
      const value = await load();
      if (feed?.live && value !== null && seen === generation) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, { value, at: Date.now() });
      }
      return value;
    },
  };
}
