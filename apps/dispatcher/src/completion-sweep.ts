import { RepeatingTask, type Logger, errorFields } from "@outreach/core";
import type { Db } from "@outreach/db";
import { moveDueCompletedEnrollments } from "@outreach/domain";

/** How often the sweep looks for contacts due to move on (on_completion waits are counted in days). */
export const COMPLETION_SWEEP_EVERY_MS = 10_000;
/** Enrollments per round: each is moved in a transaction of its own. */
export const COMPLETION_SWEEP_BATCH = 50;
/** Rounds per run at most, so one run stays short whatever the backlog; the next run goes on. */
const MAX_ROUNDS = 20;

/**
 * Moves contacts who finished a campaign with on_completion without replying
 * to its follow-on campaign once its wait_days have passed
 * (moveDueCompletedEnrollments), in rounds of COMPLETION_SWEEP_BATCH. Every
 * replica runs it: each enrollment is taken FOR UPDATE SKIP LOCKED, with its
 * conditions, in its own transaction, so replicas share the work and none moves a
 * contact twice (the origin records movedOnAt). The moved contacts' step 1 is
 * planned by the move and released by the feeder.
 */
export class CompletionSweep {
  private readonly loop: RepeatingTask;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    intervalMs = COMPLETION_SWEEP_EVERY_MS,
    private readonly batch = COMPLETION_SWEEP_BATCH,
  ) {
    this.loop = new RepeatingTask(
      () => this.sweep(),
      intervalMs,
      (err) => logger.warn("completion sweep failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Rounds until one finds fewer than a batch due: the enrollments moved (refusals are recorded on them too). */
  async sweep(now = () => new Date()): Promise<{ taken: number; moved: number }> {
    const totals = { taken: 0, moved: 0 };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = await moveDueCompletedEnrollments(this.db, now(), this.batch);
      totals.taken += result.taken;
      totals.moved += result.moved;
      if (result.taken < this.batch) break;
    }
    if (totals.taken > 0) this.logger.info("completion sweep", totals);
    return totals;
  }
}
