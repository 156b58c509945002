import { errorFields } from "@outreach/core";
import type { Logger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { feedAccount, type EnqueueSends } from "@outreach/domain";

/**
 * Releases an account's next due sends after its sends end, one release at a
 * time per account in this process: requests made while one runs are served
 * by a single release after it (which fills every slot freed meanwhile), not
 * one statement per finished send.
 */
export class AccountReleases {
  private readonly running = new Map<string, { again: boolean; prefer: string | null }>();

  constructor(
    private readonly db: Db,
    private readonly enqueue: EnqueueSends,
    private readonly logger: Logger,
  ) {}

  /** `prefer`: the inbox whose session just turned free (its sends go first, see releaseDueSends). */
  async request(accountId: string, prefer: string | null): Promise<void> {
    const current = this.running.get(accountId);
    if (current) {
      current.again = true;
      current.prefer = prefer ?? current.prefer;
      return;
    }
    const state = { again: true, prefer };
    this.running.set(accountId, state);
    try {
      while (state.again) {
        state.again = false;
        await feedAccount(this.db, accountId, this.enqueue, new Date(), state.prefer).catch((err) => this.logger.warn("could not release the next sends", { ...errorFields(err) }));
      }
    } finally {
      this.running.delete(accountId);
    }
  }
}
