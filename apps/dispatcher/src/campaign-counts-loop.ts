import { RepeatingTask, type Logger, errorFields } from "@outreach/core";
import { rollUpCampaignCounts, type Db } from "@outreach/db";

/** How often the count rows added since the last roll-up are summed (a read sums what is left, so this bounds its work, not its truth). */
export const CAMPAIGN_COUNTS_EVERY_MS = 5_000;
/** Fresh count rows taken per round (their campaigns are rolled up whole). */
export const CAMPAIGN_COUNTS_PAGE = 2_000;
/** Rounds per run at most; the next run goes on. */
const MAX_ROUNDS = 20;

/**
 * Rolls up the campaign counts the database's triggers add with every change
 * to enrollments and step sends (rollUpCampaignCounts): a campaign's rows
 * become one per batch and per inbox, so GET /campaigns/:id sums a handful of
 * rows however large the campaign. Every replica runs it: a roll-up sums only
 * the rows it deletes, so two at once never count a row twice.
 */
export class CampaignCountsLoop {
  private readonly loop: RepeatingTask;

  constructor(
    private readonly db: Db,
    logger: Logger,
    intervalMs = CAMPAIGN_COUNTS_EVERY_MS,
    private readonly page = CAMPAIGN_COUNTS_PAGE,
  ) {
    this.loop = new RepeatingTask(
      () => this.runOnce(),
      intervalMs,
      (err) => logger.warn("campaign counts roll-up failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Rounds until one finds no campaign with fresh rows: the campaigns rolled up. */
  async runOnce(): Promise<number> {
    let campaigns = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const rolled = await rollUpCampaignCounts(this.db, this.page);
      campaigns += rolled;
      if (rolled === 0) break;
    }
    return campaigns;
  }
}
