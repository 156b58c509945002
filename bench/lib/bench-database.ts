// The end of a benchmark's scratch database: dropped, or kept for EXPLAIN by hand.
import type { TestDatabase } from "@outreach/testing";
import { log } from "./results.js";

/** Drops the database, or with BENCH_KEEP_DATABASE=1 keeps it (its URL logged) and only disconnects. */
export async function dropUnlessKept(database: TestDatabase): Promise<void> {
  if (process.env.BENCH_KEEP_DATABASE) {
    log(`database kept: ${database.url}`);
    await database.db.$disconnect();
  } else {
    await database.drop();
  }
}
