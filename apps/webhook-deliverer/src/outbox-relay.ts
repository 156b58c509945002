import pg from "pg";
import type { Logger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { relayOutboxBatch, type RelayedDelivery } from "@outreach/domain";

export interface OutboxRelayOptions {
  /** how often the outbox is read when no notification arrives (the fallback) */
  pollMs?: number;
  batchSize?: number;
}

/**
 * Drains the outbox: woken by the events table's NOTIFY at commit (LISTEN on
 * a connection of its own), and polling as a fallback, so a missed
 * notification or a lost LISTEN connection only delays. Each batch is fanned
 * out in one transaction (see relayOutboxBatch); the deliveries it created
 * are handed to `enqueue` after the commit. The relay needs only PostgreSQL:
 * events written while Redis is away are fanned out, and their jobs are
 * queued by the sweeper once Redis is back.
 */
export class OutboxRelay {
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly databaseUrl: string,
    private readonly enqueue: (deliveries: RelayedDelivery[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {}

  async start(): Promise<void> {
    await this.listen();
    this.schedulePoll();
    this.wake();
  }

  /** Runs a drain now, or once more after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedulePoll();
    }, this.options.pollMs ?? 1_000);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const batch = await relayOutboxBatch(this.db, this.options.batchSize ?? 200);
        if (batch.events === 0) return;
        if (batch.deliveries.length > 0) {
          await this.enqueue(batch.deliveries).catch((err) =>
            // the rows are pending: the sweeper queues them once Redis answers
            this.logger.warn("could not queue webhook deliveries; the sweeper will", { deliveries: batch.deliveries.length, error: (err as Error).message }),
          );
        }
        if (this.stopped) return;
      }
    } catch (err) {
      this.logger.warn("outbox relay failed; retrying on the next poll", { error: (err as Error).message });
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on("notification", () => this.wake());
    client.on("error", (err) => {
      this.logger.warn("outbox LISTEN connection lost; polling until it is back", { error: err.message });
      client.end().catch(() => undefined);
      if (this.listener === client) this.listener = undefined;
      setTimeout(() => void this.listen(), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query("LISTEN outbox_events");
      this.listener = client;
    } catch (err) {
      this.logger.warn("could not LISTEN for outbox events; polling", { error: (err as Error).message });
      client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), 2_000).unref();
    }
  }
}
