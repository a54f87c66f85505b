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

export function createChangeFeed(databaseUrl: string): ChangeFeed {
  const listeners: ChangeListener[] = [];
  const embedded = databaseUrl.startsWith("pglite://");
  let client: pg.Client | null = null;
  let live = embedded;
  let stopped = false;
  const announce = (table: string) => {
    listeners.forEach((l) => {
      l(table);
    });
  };

  const retry = () => {
    if (!stopped) setTimeout(() => void connect().catch(retry), 500);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", (n) => {
      announce(n.payload ?? "*");
    });
    next.on("error", () => {
      live = false;
      announce("*"); // anything may have changed while we could not hear
      void next.end().catch(() => {});
      retry();
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    client = next;
    live = true;
    announce("*");
  }

  return {
    get live() {
      return live;
    },
    on: (listener) => void listeners.push(listener),
    announce,
    async start() {
      if (!embedded) await connect();
    },
    async stop() {
      stopped = true;
      live = false;
      await client?.end().catch(() => {});
    },
  };
}
