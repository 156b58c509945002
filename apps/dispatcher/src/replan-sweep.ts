import { RepeatingTask, type Logger, type TypedQueue, errorFields } from "@outreach/core";
import { campaignsWithResumeReplan, inboxesWithHeldSendsMove, type Db } from "@outreach/db";
import { heldSendsMoveJobId, resumeReplanJobId } from "@outreach/domain";

/**
 * Adds a replan-held-sends job for every re-plan the database says is wanted:
 * inboxes disabled with held sends to move (the bounce that disabled one only
 * marks it, in its own short transaction) and resumes in progress (whose job
 * the API adds too; the sweep covers an API that died before adding it). Job
 * ids are per request, so a job is added once however often the sweep runs.
 */
export class ReplanSweep {
  private readonly loop: RepeatingTask;

  constructor(
    private readonly db: Db,
    private readonly queue: TypedQueue<"replan-held-sends">,
    private readonly logger: Logger,
    intervalMs = 2_000,
  ) {
    this.loop = new RepeatingTask(
      () => this.sweep(),
      intervalMs,
      (err) => logger.warn("replan sweep failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  async sweep(): Promise<number> {
    const moves = await inboxesWithHeldSendsMove(this.db);
    const resumes = await campaignsWithResumeReplan(this.db);
    if (moves.length + resumes.length === 0) return 0;
    await this.queue.addBulk([
      ...moves.map((m) => ({
        payload: { accountId: m.accountId, campaignId: m.campaignId, reason: "credential_disabled" as const, credentialId: m.id },
        options: { jobId: heldSendsMoveJobId(m.id, m.requestedAt) },
      })),
      ...resumes.map((r) => ({
        payload: { accountId: r.accountId, campaignId: r.id, reason: "resume" as const },
        options: { jobId: resumeReplanJobId(r.id, r.before) },
      })),
    ]);
    return moves.length + resumes.length;
  }
}
