import { RepeatingTask, type Logger, type SenderRegistry, errorFields } from "@outreach/core";
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
  private readonly loop: RepeatingTask;

  constructor(
    private readonly db: Db,
    private readonly registry: SenderRegistry,
    private readonly router: SendRouter,
    private readonly logger: Logger,
    everyMs = 1_000,
  ) {
    this.loop = new RepeatingTask(
      () => this.check(),
      everyMs,
      (err) => logger.warn("sender takeover check failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
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
