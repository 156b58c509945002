// The PostgreSQL slow-statement log of a benchmark's database (BENCH_PG_LOG_MS).
import { readFileSync, statSync } from "node:fs";
import { executor, type Db } from "@outreach/db";

const PG_LOG = process.env.BENCH_PG_LOG_FILE ?? "/var/log/postgresql/postgresql-15-main.log";

/**
 * BENCH_PG_LOG_MS=<ms>: log this database's statements slower than that (its own
 * setting, dropped with it) and summarize them from the server log afterwards.
 * Returns the log's size now, the offset to read from, or null when off.
 */
export async function slowLogStart(db: Db, database: string): Promise<number | null> {
  const setting = process.env.BENCH_PG_LOG_MS;
  const ms = Number(setting);
  if (!setting || !Number.isFinite(ms) || ms < 0) return null;
  await executor(db).execute(`ALTER DATABASE "${database}" SET log_min_duration_statement = ${Math.round(ms)}`);
  try {
    return statSync(PG_LOG).size;
  } catch {
    return null;
  }
}

/** The slowest statements of this database since `offset`, grouped by their first 160 characters. */
export function slowLogSummary(database: string, offset: number | null, top = 12) {
  if (offset === null) return undefined;
  const text = readFileSync(PG_LOG).subarray(offset).toString("utf8");
  const groups = new Map<string, { count: number; total_ms: number; max_ms: number }>();
  const pattern = new RegExp(`@${database} LOG:  duration: ([\\d.]+) ms  (?:statement|execute [^:]*): (.*)$`);
  // a statement continues on the lines that do not start with a log prefix (a timestamp)
  const entries: Array<{ ms: number; text: string }> = [];
  let current: { ms: number; text: string } | undefined;
  for (const line of text.split("\n")) {
    if (/^\d{4}-\d\d-\d\d /.test(line)) {
      const match = line.match(pattern);
      current = match ? { ms: Number(match[1]), text: match[2]! } : undefined;
      if (current) entries.push(current);
    } else if (current) {
      current.text += " " + line;
    }
  }
  for (const entry of entries) {
    const key = entry.text.replace(/\s+/g, " ").trim().slice(0, 160);
    const g = groups.get(key) ?? { count: 0, total_ms: 0, max_ms: 0 };
    g.count++;
    g.total_ms += entry.ms;
    g.max_ms = Math.max(g.max_ms, entry.ms);
    groups.set(key, g);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].total_ms - a[1].total_ms)
    .slice(0, top)
    .map(([statement, g]) => ({ statement, count: g.count, total_ms: Math.round(g.total_ms), max_ms: Math.round(g.max_ms) }));
}
