// The event services one server runs over one database: for the customers' order events and for the contractor
// feed each, a sequencer, JSON pages and a hub of live streams (the same code, two tables).
import type { Config } from "../../config.js";
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import type { KeyService } from "../access/keys.js";
import { eventPage, orderFeed, type EventScope } from "./feed.js";
import { contractorEventsTable, createFeedSequencer } from "./sequencer.js";
import { contractorEventPage, contractorFeed, type ContractorScope } from "./contractor-feed.js";
import { createEventStreams } from "./stream.js";

/** What each stream may cost, and how often the hubs look (the same for both feeds). */
const streamOptions = (config: Pick<Config, "eventStreams">) => ({
  pollMs: 200,
  heartbeatMs: 15_000,
  keyCheckMs: 2000,
  perKey: config.eventStreams.perKey,
  maxMs: config.eventStreams.maxSeconds * 1000,
  maxBufferedBytes: 1024 * 1024,
  endGraceMs: 10_000,
});

export function createEventServices(
  db: Db,
  config: Pick<Config, "eventStreams">,
  deps: { keys: Pick<KeyService, "revokedAmong">; changes: ChangeFeed },
) {
  const timing = { intervalMs: 100, sweepMs: 2000 };
  const eventSequencer = createFeedSequencer(db, timing);
  const contractorSequencer = createFeedSequencer(db, timing, contractorEventsTable);
  const revokedKeys = (ids: string[]) => deps.keys.revokedAmong(ids);
  const options = streamOptions(config);
  const streams = createEventStreams(
    { db, sequencer: eventSequencer, revokedKeys, changes: deps.changes },
    options,
    orderFeed,
  );
  const contractorStreams = createEventStreams(
    { db, sequencer: contractorSequencer, revokedKeys, changes: deps.changes },
    options,
    contractorFeed,
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
    contractorSequencer,
    contractorEvents: {
      async page(after: number, scope: ContractorScope, limit: number) {
        await contractorSequencer.sequenceNow(); // the caller's own writes are on the page
        return contractorEventPage(db, after, scope, limit);
      },
    },
    contractorStreams,
  };
}
