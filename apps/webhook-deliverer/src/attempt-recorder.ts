import { errorFields } from "@outreach/core";
import type { DeliveryOutcomeLabel, Logger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { recordDeliveryAttempts, type AttemptOutcome, type AttemptVerdict, type RecordedAttempt } from "@outreach/domain";

interface Waiting {
  outcome: AttemptOutcome;
  resolve: (recorded: RecordedAttempt) => void;
  reject: (err: Error) => void;
}

/** Outcomes recorded in one statement at most. */
const MAX_BATCH = 500;
/**
 * How long the first outcome waits for others to share its write. The slot
 * is free already (the answer is in): this delays only the row's update, and
 * under load it turns a write per few attempts into one per hundred.
 */
const LINGER_MS = 10;
const RETRY_DELAYS_MS = [100, 500, 2_000, 5_000];
const VERDICT_LABEL = { succeeded: "delivered", retry: "retried", failed: "failed" } as const satisfies Record<AttemptVerdict, DeliveryOutcomeLabel>;

/**
 * Records attempts by group commit: the first outcome waits LINGER_MS for
 * others, and every outcome that arrives while a write is under way goes into
 * the next one. At idle that is one write per attempt, 10 ms late; under
 * load, one write per batch of up to 500. A write that fails is tried again
 * a few times; the deliveries stay held meanwhile, so nothing is attempted
 * twice while the database is briefly away.
 */
export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly retryBaseMs: number,
    private readonly logger: Logger,
    /** outreach_webhook_deliveries_total, counted once an attempt is recorded */
    private readonly counter?: { inc(labels: { outcome: DeliveryOutcomeLabel }): void },
  ) {}

  record(outcome: AttemptOutcome): Promise<RecordedAttempt> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ outcome, resolve, reject });
      this.writing ??= this.writeAll().finally(() => (this.writing = undefined));
      if (this.waiting.length >= MAX_BATCH) this.lingering?.();
    });
  }

  /** Resolves once every outcome handed over so far is written (or given up on). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private lingering: (() => void) | undefined;

  private async writeAll(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, LINGER_MS);
      this.lingering = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.lingering = undefined;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      await this.write(batch);
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const recorded = await recordDeliveryAttempts(
          this.db,
          batch.map((w) => w.outcome),
          this.retryBaseMs,
        );
        for (const attempt of recorded) this.counter?.inc({ outcome: VERDICT_LABEL[attempt.verdict] });
        batch.forEach((w, i) => w.resolve(recorded[i]!));
        return;
      } catch (err) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          // the deliveries' hold lapses and another attempt goes out later: at least once, never lost
          this.logger.error("could not record webhook attempts; they will be attempted again", { attempts: batch.length, ...errorFields(err) });
          batch.forEach((w) => w.reject(err as Error));
          return;
        }
        this.logger.warn("recording webhook attempts failed; trying again", { attempts: batch.length, ...errorFields(err) });
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
