// A Knex on a fresh in-memory PGlite with nothing in it, for tests about what happens without the tables:
// `createDb("pglite://memory")` restores the sources' snapshot, migrated, once a test server has made it
// (pglite-snapshot.ts), so it is empty or not depending on which file ran first.
import knex, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";

export const emptyPglite = (): Knex =>
  knex({ client: ClientPgLite, dialect: "postgres", connection: {} } as Knex.Config);
