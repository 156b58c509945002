import { redisKeys, RepeatingTask, type Config, type Logger, errorFields, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { DomainHealthChecker, recheckDueDomains } from "@outreach/domain";

/** How often the sweep looks for sending domains to check (one replica per period): a new inbox's domain is checked within about this long. */
export const DOMAIN_HEALTH_SWEEP_EVERY_MS = 60_000;
/** Domains checked per run at most; the rest wait for the next run. */
export const DOMAIN_HEALTH_SWEEP_BATCH = 20;
/** Domains checked at once (each check makes a few dozen DNS queries). */
const CHECKS_IN_FLIGHT = 4;

/**
 * Keeps the sender-domain health reports fresh: each run checks the sending
 * domains (of inboxes of campaigns not finished) whose report is missing or
 * older than 24 h, a few at a time, and stores the reports
 * (recheckDueDomains). Every dispatcher replica runs the loop; the first to
 * take the Redis key of a period runs it, the key expiring at the end of the
 * period, so one replica checks per period and a replica that dies mid-run
 * holds nothing for longer. DNS is never on an API request's path here.
 */
export class DomainHealthSweep {
  private readonly loop: RepeatingTask;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    private readonly checker: DomainHealthChecker,
    private readonly logger: Logger,
    private readonly everyMs = DOMAIN_HEALTH_SWEEP_EVERY_MS,
    private readonly batch = DOMAIN_HEALTH_SWEEP_BATCH,
  ) {
    this.loop = new RepeatingTask(
      () => this.runOnce(),
      everyMs,
      (err) => logger.warn("domain health sweep failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Waits for the checks under way (each bounded by its DNS deadlines); no further one starts. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
  }

  /** Checks the domains due if no replica has this period: how many were checked; null when another replica has the period. */
  async runOnce(now = () => new Date()): Promise<number | null> {
    const won = await this.redis.set(redisKeys.domainHealthSweep(this.config), now().toISOString(), "PX", this.everyMs, "NX");
    if (won !== "OK") return null;
    const checked = await recheckDueDomains(
      this.db,
      this.checker,
      {
        limit: this.batch,
        concurrency: CHECKS_IN_FLIGHT,
        onError: (err, due) => this.logger.warn("domain health check failed", { domain: due.domain, accountId: due.accountId, ...errorFields(err) }),
        stopped: () => this.stopping,
      },
      now,
    );
    if (checked.length) this.logger.info("domain health sweep", { checked: checked.length, failing: checked.filter((c) => c.status === "fail").length });
    return checked.length;
  }
}
