// The event services one server runs: the feed sequencer, JSON pages and live streams over one database.
import type { Config } from "../../config.js";
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import type { KeyService } from "../access/keys.js";
import { eventPage, type EventScope } from "./feed.js";
import { createFeedSequencer } from "./sequencer.js";
import { createEventStreams } from "./stream.js";

export function createEventServices(
  db: Db,
  config: Pick<Config, "eventStreams">,
  deps: { keys: Pick<KeyService, "revokedAmong">; changes: ChangeFeed },
) {
  const eventSequencer = createFeedSequencer(db, { intervalMs: 100, sweepMs: 2000 });
  const streams = createEventStreams(
    { db, sequencer: eventSequencer, revokedKeys: (ids) => deps.keys.revokedAmong(ids), changes: deps.changes },
    {
      pollMs: 200,
      heartbeatMs: 15_000,
      keyCheckMs: 2000,
      perKey: config.eventStreams.perKey,
      maxMs: config.eventStreams.maxSeconds * 1000,
      maxBufferedBytes: 1024 * 1024,
      endGraceMs: 10_000,
    },
  );
  return {
    eventSequencer,
    eventFeed: {
      async page(after: number, scope: EventScope, limit: number, base: string) {
        await eventSequencer.sequenceNow(); // the caller's own writes are on the page
        return eventPage(db, after, scope, limit, base);
      },
    },
    eventStreams: streams,
  };
}
