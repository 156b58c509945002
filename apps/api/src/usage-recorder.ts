import type { Logger } from "@outreach/core";
import { fromDb, insertRequestLogs, recordApiKeysLastUsed, touchApiKeyLastUsed, type ClientKind, type Db, type Executor } from "@outreach/db";

export interface RequestRecord {
  accountId: string;
  apiKeyId: string;
  clientKind: ClientKind;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  createdAt: Date;
}

/**
 * Keeps the request log and api_keys.last_used_at off the request path: requests
 * are buffered in memory and written in batches four times a second (and on
 * shutdown). A crash loses at most the last moment of usage rows, never a request.
 *
 * last_used_at must be visible to the client's next request, on any replica: a
 * key's first request in each LAST_USED_RESOLUTION_MS (per replica) writes it
 * before the request goes on (touch), the others leave it to the batch. So a
 * read never shows a used key as unused, nor its last use more than about a
 * second old, at the cost of at most one UPDATE per key per second.
 */
/** How stale a key's last_used_at may be when read (see touch). */
export const LAST_USED_RESOLUTION_MS = 1_000;

export class UsageRecorder {
  private requests: RequestRecord[] = [];
  private lastUsed = new Map<string, Date>();
  /** per key: when this replica last wrote its last_used_at on the request path */
  private lastUsedWrittenAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** the client's own pg pool: these statements carry thousands of parameters, which the ORM would take apart first */
  private readonly pool: Executor;

  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly intervalMs = 250,
    private readonly maxBuffered = 50_000,
  ) {
    this.pool = fromDb(db);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  record(entry: RequestRecord): void {
    if (this.requests.length < this.maxBuffered) this.requests.push(entry);
    this.noteLastUsed(entry.apiKeyId, entry.createdAt);
  }

  /**
   * A request authenticated with this key at `at`: resolves once the key's
   * last_used_at is at most LAST_USED_RESOLUTION_MS older than `at` (written now
   * if this replica has not written it within that time; otherwise by the batch).
   * undefined when there is nothing to wait for (nearly every request).
   */
  touch(apiKeyId: string, at: Date): Promise<void> | undefined {
    this.noteLastUsed(apiKeyId, at);
    const written = this.lastUsedWrittenAt.get(apiKeyId);
    if (written !== undefined && at.getTime() - written < LAST_USED_RESOLUTION_MS) return undefined;
    this.lastUsedWrittenAt.set(apiKeyId, at.getTime());
    return this.writeLastUsed(apiKeyId, at);
  }

  private async writeLastUsed(apiKeyId: string, at: Date): Promise<void> {
    try {
      await touchApiKeyLastUsed(this.pool, apiKeyId, at);
    } catch (err) {
      // the batch writes it when the database answers again
      this.lastUsedWrittenAt.delete(apiKeyId);
      this.logger.warn("could not record an API key's use", { error: (err as Error).message });
    }
  }

  private noteLastUsed(apiKeyId: string, at: Date): void {
    const previous = this.lastUsed.get(apiKeyId);
    if (!previous || previous < at) this.lastUsed.set(apiKeyId, at);
  }

  /** Writes what is buffered; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.requests.length || this.lastUsed.size) await this.flush();
  }

  private async write(): Promise<void> {
    const requests = this.requests;
    const lastUsed = this.lastUsed;
    if (!requests.length && !lastUsed.size) return;
    // forget keys whose next request writes last_used_at anyway (bounds the map to the keys in use)
    const stale = Date.now() - LAST_USED_RESOLUTION_MS;
    for (const [id, writtenAt] of this.lastUsedWrittenAt) if (writtenAt < stale) this.lastUsedWrittenAt.delete(id);
    this.requests = [];
    this.lastUsed = new Map();
    try {
      // one INSERT of arrays per chunk: far cheaper for the event loop than createMany
      for (let i = 0; i < requests.length; i += 5_000) {
        const chunk = requests.slice(i, i + 5_000);
        await insertRequestLogs(this.pool, {
          accountIds: chunk.map((r) => r.accountId),
          apiKeyIds: chunk.map((r) => r.apiKeyId),
          clientKinds: chunk.map((r) => r.clientKind),
          methods: chunk.map((r) => r.method),
          routes: chunk.map((r) => r.route),
          statuses: chunk.map((r) => r.status),
          durationsMs: chunk.map((r) => r.durationMs),
          createdAts: chunk.map((r) => r.createdAt.toISOString()),
        });
      }
      // One statement for all keys; never moves last_used_at backwards.
      if (lastUsed.size) {
        const ids = [...lastUsed.keys()];
        const times = ids.map((id) => lastUsed.get(id)!.toISOString());
        await recordApiKeysLastUsed(this.pool, ids, times);
      }
    } catch (err) {
      this.logger.warn("could not record API usage; it will be retried", { error: (err as Error).message });
      // put the batch back (bounded), so a short database outage loses nothing
      this.requests = [...requests, ...this.requests].slice(0, this.maxBuffered);
      for (const [id, at] of lastUsed) if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
    }
  }
}
