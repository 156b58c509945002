import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { createDbClient, isDatabaseBusyError, type Db } from "../src/index.js";

// The errors a busy database raises, as they really surface through Prisma and the
// pg driver adapter, are recognised; other errors are not. No tables needed: an
// advisory lock is a lock like any other for lock_timeout.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const KEY = 7_204_311_903;
let db: Db;
let holder: pg.Client;

before(async () => {
  db = createDbClient(ADMIN_URL, { poolMax: 1, statementTimeoutMs: 500, lockTimeoutMs: 200, idleInTransactionTimeoutMs: 10_000 });
  holder = new pg.Client({ connectionString: ADMIN_URL });
  await holder.connect();
});

after(async () => {
  await holder?.end();
  await db?.$disconnect();
});

const busy = (err: unknown) => {
  assert.ok(isDatabaseBusyError(err), `not recognised as busy: ${(err as Error).message}`);
  return true;
};

test("lock_timeout (55P03), in a transaction and alone", async () => {
  await holder.query("SELECT pg_advisory_lock($1)", [KEY]);
  try {
    await assert.rejects(db.$queryRaw`SELECT pg_advisory_xact_lock(${KEY}::bigint)`, busy);
    await assert.rejects(
      db.$transaction((tx) => tx.$queryRaw`SELECT pg_advisory_xact_lock(${KEY}::bigint)`),
      busy,
    );
  } finally {
    await holder.query("SELECT pg_advisory_unlock($1)", [KEY]);
  }
});

test("statement_timeout (57014)", async () => {
  await assert.rejects(db.$queryRaw`SELECT pg_sleep(5)`, busy);
});

test("an interactive transaction past its timeout, or one that cannot start in time (P2028)", async () => {
  await assert.rejects(
    db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await new Promise((resolve) => setTimeout(resolve, 400));
        await tx.$queryRaw`SELECT 2`;
      },
      { timeout: 100 },
    ),
    busy,
  );
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const isStarted = new Promise<void>((resolve) => (started = resolve));
  // the pool's one connection is taken by this transaction
  const holding = db.$transaction(
    async () => {
      started();
      await released;
    },
    { timeout: 30_000 },
  );
  try {
    await isStarted;
    await assert.rejects(
      db.$transaction(async () => undefined, { maxWait: 100 }),
      busy,
    );
    // a statement alone waits for a pool connection up to the pool's connect timeout
    await assert.rejects(db.$queryRaw`SELECT 1`, busy);
  } finally {
    release();
    await holding;
  }
});

test("other errors are not busy", async () => {
  await assert.rejects(db.$queryRawUnsafe("SELECT * FROM no_such_table_here"), (err) => !isDatabaseBusyError(err));
  await assert.rejects(db.$queryRaw`SELECT 1/0`, (err) => !isDatabaseBusyError(err));
  assert.equal(isDatabaseBusyError(new Error("boom")), false);
  assert.equal(isDatabaseBusyError(null), false);
});
