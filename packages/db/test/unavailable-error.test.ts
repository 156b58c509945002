import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import pg from "pg";
import { createDbClient, isDatabaseUnavailableError, type Db } from "../src/index.js";

// A database that cannot be reached or goes away under a statement, as the failure really
// surfaces through Prisma with the pg driver adapter and through pg: recognised as
// unavailable; an error of the statement itself is not.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const target = new URL(ADMIN_URL);
let admin: pg.Client;
const clients: Db[] = [];

before(async () => {
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
});

after(async () => {
  await admin?.end();
  for (const db of clients) await db.$disconnect().catch(() => undefined);
});

const unavailable = (err: unknown) => {
  assert.ok(isDatabaseUnavailableError(err), `not recognised as unavailable: ${(err as Error).message}`);
  return true;
};

function clientAt(port: number): Db {
  const url = new URL(ADMIN_URL);
  url.host = `127.0.0.1:${port}`;
  const db = createDbClient(url.toString(), { poolMax: 1 });
  clients.push(db);
  return db;
}

test("nothing listening (P1001), with Prisma's model calls, raw queries and transactions, and with pg", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const db = clientAt(port);
  await assert.rejects(db.plan.findFirst(), unavailable);
  await assert.rejects(db.$queryRawUnsafe("SELECT 1"), unavailable);
  await assert.rejects(
    db.$transaction((tx) => tx.$queryRawUnsafe("SELECT 1")),
    unavailable,
  );
  await assert.rejects(new pg.Client({ host: "127.0.0.1", port, user: "postgres" }).connect(), unavailable);
});

test("a connection dropped by the network or the server under a statement", async () => {
  // a server that accepts and hangs up at once: the connection ends before it is ready
  const hangUp = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => hangUp.listen(0, "127.0.0.1", resolve));
  const db = clientAt((hangUp.address() as { port: number }).port);
  await assert.rejects(db.$queryRawUnsafe("SELECT 1"), unavailable);
  await new Promise<void>((resolve) => hangUp.close(() => resolve()));

  // the server ends the session under a running statement (57P01, as a shutdown does); between
  // statements the pool would only replace the connection
  const live = clientAt(Number(target.port || 5432));
  const [session] = await live.$queryRawUnsafe<Array<{ pid: number }>>("SELECT pg_backend_pid() AS pid");
  const running = live.$queryRawUnsafe("SELECT pg_sleep(30)");
  running.catch(() => undefined);
  for (let waited = 0; waited < 10_000; waited += 20) {
    const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%' AND state = 'active'", [session!.pid]);
    if (rows.length) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await admin.query("SELECT pg_terminate_backend($1)", [session!.pid]);
  await assert.rejects(running, unavailable);
});

test("a failing statement is not the database being unavailable", async () => {
  const db = clientAt(Number(target.port || 5432));
  await assert.rejects(db.$queryRawUnsafe("SELECT 1/0"), (err) => !isDatabaseUnavailableError(err));
  await assert.rejects(db.$queryRawUnsafe("SELECT no_such_column FROM pg_class"), (err) => !isDatabaseUnavailableError(err));
  await assert.rejects(db.$queryRawUnsafe("SELECT $1::text", "a\u0000b"), (err) => !isDatabaseUnavailableError(err));
  assert.equal(isDatabaseUnavailableError(new Error("the message could not be parsed")), false);
  assert.equal(isDatabaseUnavailableError(null), false);
});
