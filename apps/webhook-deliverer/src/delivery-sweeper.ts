import type { Logger, TypedQueue } from "@outreach/core";
import type { Db } from "@outreach/db";
import { findOverdueDeliveries } from "@outreach/domain";
import { requeueLostAttempts } from "./delivery-jobs.js";

/**
 * Every few seconds, pending deliveries whose attempt is overdue get their job
 * back: jobs lost while Redis was away, or never queued because the process
 * that relayed them died first. Deliveries are rows in PostgreSQL, so nothing
 * is lost, only late.
 */
export class DeliverySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly queue: TypedQueue<"webhook-delivery">,
    private readonly logger: Logger,
    private readonly everyMs = 5_000,
    private readonly lateMs = 5_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep().then(
        () => undefined,
      ).finally(() => (this.running = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<number> {
    try {
      const overdue = await findOverdueDeliveries(this.db, this.lateMs);
      const requeued = await requeueLostAttempts(this.queue, overdue);
      if (requeued > 0) this.logger.info("requeued overdue webhook deliveries", { requeued });
      return requeued;
    } catch (err) {
      this.logger.warn("delivery sweep failed", { error: (err as Error).message });
      return 0;
    }
  }
}
