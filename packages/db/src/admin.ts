import pg from "pg";

/*
 * Database administration for the test harness (the scratch databases it
 * clones from a migrated template, and the PgBouncer it runs), and a pg
 * connection of its own for tests that hold a lock, LISTEN, or watch other
 * sessions across statements. Imported from "@outreach/db/testing".
 */

/** A connected pg client of its own (not a pool's): end() closes it. */
export type PgConnection = pg.Client;

/** Opens a connection of its own to the database at `url`. */
export async function openPgConnection(url: string): Promise<PgConnection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `fn` on a connection of its own to `url`, closed afterwards. */
export async function withPgConnection<T>(url: string, fn: (client: PgConnection) => Promise<T>): Promise<T> {
  const client = await openPgConnection(url);
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A database's name as an identifier (the caller's names are plain: no quoting of quotes). */
const quoted = (name: string) => `"${name}"`;

/** True when a database of that name exists. */
export async function databaseExists(client: PgConnection, name: string): Promise<boolean> {
  const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  return Boolean(rowCount);
}

/** Takes the session-level advisory lock for `key` (hashtext), waiting for it. */
export async function lockAdvisoryKey(client: PgConnection, key: string): Promise<void> {
  await client.query("SELECT pg_advisory_lock(hashtext($1))", [key]);
}

/** Releases the session-level advisory lock for `key`. */
export async function unlockAdvisoryKey(client: PgConnection, key: string): Promise<void> {
  await client.query("SELECT pg_advisory_unlock(hashtext($1))", [key]);
}

/** CREATE DATABASE, empty or as a copy of `template`. */
export async function createDatabase(client: PgConnection, name: string, template?: string): Promise<void> {
  if (template === undefined) await client.query(`CREATE DATABASE ${quoted(name)}`);
  else await client.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(template)}`);
}

/** DROP DATABASE IF EXISTS; with `force`, its connections are ended first (WITH (FORCE)). */
export async function dropDatabaseIfExists(client: PgConnection, name: string, options: { force?: boolean } = {}): Promise<void> {
  if (options.force) await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
  else await client.query(`DROP DATABASE IF EXISTS ${quoted(name)}`);
}

/** ALTER DATABASE ... RENAME TO. */
export async function renameDatabase(client: PgConnection, from: string, to: string): Promise<void> {
  await client.query(`ALTER DATABASE ${quoted(from)} RENAME TO ${quoted(to)}`);
}

/** Marks the database a template (ALTER DATABASE ... WITH IS_TEMPLATE true). */
export async function markTemplateDatabase(client: PgConnection, name: string): Promise<void> {
  await client.query(`ALTER DATABASE ${quoted(name)} WITH IS_TEMPLATE true`);
}

/** The names of the databases matching a LIKE pattern. */
export async function databasesNamedLike(client: PgConnection, pattern: string): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [pattern]);
  return rows.map((row) => row.datname);
}

/**
 * Transactions a PgBouncer has passed to `database` so far (SHOW STATS on its
 * admin console at `consoleUrl`, the "pgbouncer" database).
 */
export async function pgbouncerTransactionsServed(consoleUrl: string, database: string): Promise<number> {
  // the admin console speaks only the simple query protocol: a query without parameters
  return withPgConnection(consoleUrl, async (client) => {
    const { rows } = await client.query<{ database: string; total_xact_count: string }>("SHOW STATS");
    return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
  });
}
