// Table-change notices for in-memory caches: Postgres LISTEN on 'dispatch_cache' (fed by triggers) reaches every
// instance on the database; local writes are announced in-process too (PGlite has one process by definition).
import type { Client } from "pg";
import { startBackgroundJob, type BackgroundJob } from "../background-job.js";

export type ChangeListener = (table: string) => void;
export interface ChangeFeed {
  /** False while the LISTEN connection is down: caches must not serve entries then. */
  readonly live: boolean;
  on(listener: ChangeListener): void;
  /** Announces a local change at once (the trigger's notice follows for other instances). */
  announce(table: string): void;
  /** Connects (Postgres) and keeps the connection up until stop(), reporting failed reconnects to onError. */
  start(onError: (error: unknown) => void): Promise<void>;
  stop(): Promise<void>;
}

const channel = "dispatch_cache";

/** Closing an already broken connection may fail too; nothing is left to do about it. */
const ignoreError = (): void => undefined;

/** How often a lost LISTEN connection is retried (doubling while the database stays unreachable, up to 5 s). */
const reconnectTiming = { intervalMs: 500, maxBackoffMs: 5_000 };

interface FeedState {
  client: Client | null;
  live: boolean;
  stopped: boolean;
  /** Keeps the connection up once started; null before start() and after stop(). */
  keeper: BackgroundJob | null;
}

/** LISTENs on the channel; when the connection breaks, announces "*" and drops it for the keeper to replace. */
function notificationListener(databaseUrl: string, state: FeedState, announce: (table: string) => void) {
  return async function connect(): Promise<void> {
    const { default: pg } = await import("pg"); // only Postgres listens: PGlite servers never load the driver
    const next = new pg.Client({ connectionString: databaseUrl });
    const lost = () => {
      if (state.client === next) state.client = null;
      state.live = false;
      announce("*"); // anything may have changed while we could not hear
      void next.end().catch(ignoreError);
    };
    next.on("notification", (n) => {
      announce(n.payload ?? "*");
    });
    next.on("error", lost);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(ignoreError);
      throw error;
    }
    if (state.stopped) {
      await next.end().catch(ignoreError); // stop() came during the connect
      return;
    }
    next.on("end", lost); // the server closed it (a restart), with or without an error first
    state.client = next;
    state.live = true;
    announce("*");
  };
}

export function createChangeFeed(databaseUrl: string): ChangeFeed {
  const listeners: ChangeListener[] = [];
  const embedded = databaseUrl.startsWith("pglite://");
  const state: FeedState = { client: null, live: embedded, stopped: false, keeper: null };
  const announce = (table: string) => {
    listeners.forEach((l) => {
      l(table);
    });
  };
  const connect = notificationListener(databaseUrl, state, announce);
  /** One keeper run: reconnects when the connection is gone (a failure is logged and retried with backoff). */
  const keepListening = async () => {
    if (state.client) return 0;
    await connect();
    return 1;
  };

  return {
    get live() {
      return state.live;
    },
    on: (listener) => void listeners.push(listener),
    announce,
    async start(onError) {
      if (embedded || state.keeper) return;
      state.stopped = false;
      await connect(); // the first connection fails the boot rather than being retried
      state.keeper = startBackgroundJob(keepListening, reconnectTiming, onError);
    },
    async stop() {
      state.stopped = true;
      state.live = false;
      await state.keeper?.stop();
      state.keeper = null;
      const client = state.client;
      state.client = null;
      client?.removeAllListeners("end");
      await client?.end().catch(ignoreError);
    },
  };
}
