// Table-change notices for in-memory caches: Postgres LISTEN on 'dispatch_cache' (fed by triggers) reaches every
// instance on the database; local writes are announced in-process too (PGlite has one process by definition).
import pg from "pg";

export type ChangeListener = (table: string) => void;
export interface ChangeFeed {
  /** False while the LISTEN connection is down: caches must not serve entries then. */
  readonly live: boolean;
  on(listener: ChangeListener): void;
  /** Announces a local change at once (the trigger's notice follows for other instances). */
  announce(table: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const channel = "dispatch_cache";

/** Closing an already broken connection may fail too; nothing is left to do about it. */
const ignoreError = (): void => undefined;

interface FeedState {
  client: pg.Client | null;
  live: boolean;
  stopped: boolean;
}

/** LISTENs on the channel; on a connection error announces "*" and reconnects every 500 ms until stopped. */
function notificationListener(databaseUrl: string, state: FeedState, announce: (table: string) => void) {
  const retry = () => {
    if (!state.stopped) setTimeout(() => void connect().catch(retry), 500);
  };
  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", (n) => {
      announce(n.payload ?? "*");
    });
    next.on("error", () => {
      state.live = false;
      announce("*"); // anything may have changed while we could not hear
      void next.end().catch(ignoreError);
      retry();
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    state.client = next;
    state.live = true;
    announce("*");
  }
  return connect;
}

export function createChangeFeed(databaseUrl: string): ChangeFeed {
  const listeners: ChangeListener[] = [];
  const embedded = databaseUrl.startsWith("pglite://");
  const state: FeedState = { client: null, live: embedded, stopped: false };
  const announce = (table: string) => {
    listeners.forEach((l) => {
      l(table);
    });
  };
  const connect = notificationListener(databaseUrl, state, announce);

  return {
    get live() {
      return state.live;
    },
    on: (listener) => void listeners.push(listener),
    announce,
    async start() {
      if (!embedded) await connect();
    },
    async stop() {
      state.stopped = true;
      state.live = false;
      await state.client?.end().catch(ignoreError);
    },
  };
}
