import { Batcher, RepeatingTask, type Logger, errorFields, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { recordJournaledSend, type SentInput } from "@outreach/domain";

interface JournalEntry {
  stepSendId: string;
  accountId: string;
  credentialId: string;
  messageId: string;
  accountPeriod: { start: string; end: string };
  outcome: "accepted" | "unknown";
  note: string | null;
  /** absent in entries written before variants existed */
  variantId?: string | null;
  sentAt: string;
  journaledAt: number;
}

/** A recorded send's entry is removed within this long of its record, with the others recorded meanwhile. */
const REMOVE_EVERY_MS = 100;

export interface SentJournalOptions {
  /** how often the journal is replayed into PostgreSQL */
  drainEveryMs?: number;
  /** entries younger than this are left to the sender that wrote them, which records them itself */
  minAgeMs?: number;
}

/**
 * Sends that SMTP accepted (or whose outcome is unknown), kept in Redis until
 * their record is in PostgreSQL: a hash under the deployment's QUEUE_PREFIX,
 * one field per step send. The sender writes the entry right after SMTP,
 * records the send, then removes the entry. When the record cannot be written
 * (PostgreSQL unreachable) or the sender dies in between, the entry stays, and
 * every sender replays the journal (at start and then every few seconds)
 * until PostgreSQL takes it. Replaying is idempotent (recordJournaledSend), so
 * two replicas replaying the same entry still record the send once.
 */
export class SentJournal {
  private readonly loop: RepeatingTask;
  private readonly drainEveryMs: number;
  private readonly minAgeMs: number;
  // Entries of recorded sends, removed together every REMOVE_EVERY_MS (one command for all of
  // them): an entry left by a crash in between is replayed as a no-op.
  private readonly recorded = new Set<string>();
  private removalTimer: NodeJS.Timeout | undefined;
  // entries written by concurrent sends share one command
  private readonly writes = new Batcher<JournalEntry, void>(async (entries) => {
    await this.redis.hset(this.key, Object.fromEntries(entries.map((e) => [e.stepSendId, JSON.stringify(e)])));
    return entries.map(() => undefined);
  });

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly db: Db,
    private readonly logger: Logger,
    options: SentJournalOptions = {},
  ) {
    this.drainEveryMs = options.drainEveryMs ?? 2_000;
    this.minAgeMs = options.minAgeMs ?? 5_000;
    this.loop = new RepeatingTask(
      () => this.drain(),
      this.drainEveryMs,
      (err) => logger.warn("could not replay the sent journal", { ...errorFields(err) }),
      { unref: true },
    );
  }

  async write(input: SentInput & { now: Date }): Promise<void> {
    const entry: JournalEntry = {
      stepSendId: input.stepSendId,
      accountId: input.accountId,
      credentialId: input.credentialId,
      messageId: input.messageId,
      accountPeriod: { start: input.accountPeriod.start.toISOString(), end: input.accountPeriod.end.toISOString() },
      outcome: input.outcome ?? "accepted",
      note: input.note ?? null,
      variantId: input.variantId ?? null,
      sentAt: input.now.toISOString(),
      journaledAt: Date.now(),
    };
    await this.writes.run(entry);
  }

  /** Drops a recorded send's entry, within REMOVE_EVERY_MS. */
  remove(stepSendId: string): void {
    this.recorded.add(stepSendId);
    this.removalTimer ??= setTimeout(() => void this.flushRemovals(), REMOVE_EVERY_MS).unref();
  }

  private async flushRemovals(): Promise<void> {
    clearTimeout(this.removalTimer);
    this.removalTimer = undefined;
    const ids = [...this.recorded];
    this.recorded.clear();
    if (ids.length) await this.redis.hdel(this.key, ...ids).catch((err) => this.logger.warn("could not clear sent journal entries (their replay is a no-op)", { ...errorFields(err) }));
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.flushRemovals();
  }

  /** Records every entry old enough; stops at the first database failure (PostgreSQL is still away). Returns how many were recorded now. */
  async drain(now = Date.now()): Promise<number> {
    let recorded = 0;
    let cursor = "0";
    do {
      const [next, fields] = await this.redis.hscan(this.key, cursor, "COUNT", 100);
      cursor = next;
      for (let i = 0; i < fields.length; i += 2) {
        const entry = JSON.parse(fields[i + 1]!) as JournalEntry;
        if (now - entry.journaledAt < this.minAgeMs) continue;
        if (await recordJournaledSend(this.db, toSentInput(entry))) recorded += 1;
        this.remove(entry.stepSendId);
      }
    } while (cursor !== "0");
    if (recorded) this.logger.info("recorded sends from the journal", { recorded });
    return recorded;
  }
}

function toSentInput(entry: JournalEntry): SentInput {
  return {
    stepSendId: entry.stepSendId,
    accountId: entry.accountId,
    credentialId: entry.credentialId,
    messageId: entry.messageId,
    accountPeriod: { start: new Date(entry.accountPeriod.start), end: new Date(entry.accountPeriod.end) },
    outcome: entry.outcome,
    note: entry.note,
    variantId: entry.variantId ?? null,
    now: new Date(entry.sentAt),
  };
}
