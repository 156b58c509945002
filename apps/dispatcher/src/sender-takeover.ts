import type { Logger, SenderRegistry } from "@outreach/core";
import type { Db } from "@outreach/db";
import type { SendRouter } from "@outreach/domain";

/**
 * How long an expired sender's queue keeps being handed back before it is
 * forgotten: a process that read the live senders just before the expiry
 * (they are cached for half a second) may still route a send to it.
 */
const FORGET_AFTER_MS = 10_000;

/**
 * Hands the queued sends of a sender whose heartbeat ran out (killed, hung,
 * partitioned away) back to the schedule, so they are released again to the
 * live senders within seconds rather than waiting for the lost-job sweep.
 */
export class SenderTakeover {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly registry: SenderRegistry,
    private readonly router: SendRouter,
    private readonly logger: Logger,
    private readonly everyMs = 1_000,
  ) {}

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.check().then(
        () => undefined,
        (err) => void this.logger.warn("sender takeover check failed", { error: (err as Error).message }),
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.everyMs);
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: every expired sender's queue handed back, then the sender forgotten. Returns the sends handed back. */
  async check(): Promise<number> {
    let returned = 0;
    for (const { id, expiredForMs } of await this.registry.expired()) {
      const forget = expiredForMs > FORGET_AFTER_MS;
      const count = await this.router.handBack(this.db, id, { removeQueue: forget });
      if (forget) await this.registry.forget(id);
      returned += count;
      if (count) this.logger.warn("a sender stopped heartbeating: its queued sends go to the live senders", { senderId: id, sends: count });
    }
    return returned;
  }
}
