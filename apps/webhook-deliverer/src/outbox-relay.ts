import { errorFields } from "@outreach/core";
import type { Logger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { relayOutboxBatch } from "@outreach/domain";
import { PolledTask } from "./polled-task.js";

export interface OutboxRelayOptions {
  /** how often the outbox is read when no notification arrives (the fallback) */
  pollMs?: number;
  batchSize?: number;
}

/**
 * Drains the outbox: woken by the events table's NOTIFY at commit (the trigger
 * in packages/db/sql/triggers/events_notify_outbox.sql; `wake`,
 * called by the worker's PgListener), and polling as a fallback, so a missed
 * notification or a lost LISTEN connection only delays. Each batch is fanned
 * out in one transaction (see relayOutboxBatch); `onDeliveries` hears of the
 * deliveries it created after the commit. Only PostgreSQL is involved.
 */
export class OutboxRelay {
  private readonly task: PolledTask;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly onDeliveries: (count: number) => void,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.task = new PolledTask(() => this.drain(), options.pollMs ?? 1_000);
  }

  start(): void {
    this.task.start();
  }

  wake(): void {
    this.task.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const batch = await relayOutboxBatch(this.db, this.options.batchSize ?? 500);
        if (batch.events === 0) return;
        if (batch.deliveries > 0) this.onDeliveries(batch.deliveries);
        if (this.stopped) return;
      }
    } catch (err) {
      this.logger.warn("outbox relay failed; retrying on the next poll", { ...errorFields(err) });
    }
  }
}
