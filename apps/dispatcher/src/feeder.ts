import type { Db } from "@outreach/db";
import {
  accountsWithDueSends,
  claimersOfSendingSends,
  failInterruptedSends,
  releaseDueSendsOfAccounts,
  requeueLostSends,
  requeueSends,
  sendJobId,
  staleQueuedSends,
  type DueCursor,
  type EnqueueSends,
  type LostRelease,
  type ReleasedSend,
  type SendRouter,
} from "@outreach/domain";
import { RepeatingTask, type Logger, type TypedQueue, errorFields } from "@outreach/core";

export interface FeederOptions {
  intervalMs: number;
  /** accounts fed per tick at most; the next tick goes on after the last one (every account is reached in turn) */
  maxAccountsPerTick: number;
  maintenanceEveryMs: number;
  /** how often the processes holding sends in "sending" are checked for liveness */
  livenessEveryMs: number;
  /** a send still "sending" after this long was interrupted (process died mid-SMTP), whatever its claimer */
  interruptedAfterMs: number;
  /** a send still "queued" after this long has its job looked up (requeued if the job failed or is gone) */
  checkJobAfterMs: number;
  /** a send still "queued" after this long lost its job, whatever the queue says */
  lostAfterMs: number;
}

/** Accounts released by one statement of a feeder pass. */
const ACCOUNTS_PER_RELEASE = 100;

export const DEFAULT_FEEDER_OPTIONS: FeederOptions = {
  intervalMs: 200,
  maxAccountsPerTick: 1000,
  maintenanceEveryMs: 30_000,
  livenessEveryMs: 10_000,
  checkJobAfterMs: 30_000,
  interruptedAfterMs: 5 * 60_000,
  lostAfterMs: 10 * 60_000,
};

/** The ids of these processes that are not alive (see LivenessBeacon). */
export type FindAbsentProcesses = (processIds: string[]) => Promise<string[]>;

/** Which of these released sends have a job that will not run (failed, or not in the queue), and why. */
export type FindLostJobs = (sends: ReleasedSend[]) => Promise<LostRelease[]>;

/** Where a release's job may be: one queue, or every queue the SendRouter routes to. */
type JobSource = TypedQueue<"send-email"> | Pick<SendRouter, "findJob">;

/** FindLostJobs over the send queue(s): each release's job is found by its id (sendJobId). */
export function lostJobsIn(source: JobSource): FindLostJobs {
  const find = "findJob" in source ? (send: ReleasedSend) => source.findJob(send) : (send: ReleasedSend) => source.queue.getJob(sendJobId(send));
  return async (sends) => {
    const jobs = await Promise.all(sends.map(find));
    const states = await Promise.all(jobs.map((job) => job?.getState() ?? "unknown"));
    const lost: LostRelease[] = [];
    for (const [i, send] of sends.entries()) {
      const state = states[i];
      // a completed job whose send is still queued did not act on this release either
      if (state === "failed") lost.push({ ...send, reason: `its job failed: ${jobs[i]?.failedReason ?? "no reason given"}` });
      else if (state === "completed") lost.push({ ...send, reason: "its job completed without sending" });
      else if (state === "unknown") lost.push({ ...send, reason: "its job was lost" });
    }
    return lost;
  };
}

/**
 * Releases due sends to the send queue, every account up to its free slots,
 * every tick: a big batch of one account never holds back another account's
 * send by more than a tick. Also sweeps sends stuck by crashed processes: a
 * send whose sender is gone is failed within seconds (its slot comes back), so
 * a crash does not hold an account's sending back until the time-based sweep.
 * A tick feeds at most maxAccountsPerTick accounts and the next one goes on
 * where it stopped, so every account is fed in turn however many there are.
 */
export class Feeder {
  private readonly loop: RepeatingTask;
  private lastMaintenance = 0;
  private lastLivenessCheck = 0;
  /** claimers found absent by the previous check: one absence alone could be a Redis blip */
  private suspects = new Set<string>();
  /** where the previous tick's pass over the accounts stopped */
  private cursor: DueCursor | null = null;

  constructor(
    private readonly db: Db,
    private readonly enqueue: EnqueueSends,
    private readonly logger: Logger,
    private readonly findAbsent: FindAbsentProcesses,
    private readonly findLostJobs: FindLostJobs,
    private readonly options: FeederOptions = DEFAULT_FEEDER_OPTIONS,
  ) {
    this.loop = new RepeatingTask(
      () => this.tick(),
      options.intervalMs,
      (err) => logger.warn("feeder tick failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  async tick(now = new Date()): Promise<number> {
    let released = 0;
    const page = await accountsWithDueSends(this.db, now, { after: this.cursor, maxAccounts: this.options.maxAccountsPerTick });
    this.cursor = page.next;
    // a statement and an enqueue per group of accounts, not per account
    for (let i = 0; i < page.accountIds.length; i += ACCOUNTS_PER_RELEASE) {
      const sends = await releaseDueSendsOfAccounts(this.db, page.accountIds.slice(i, i + ACCOUNTS_PER_RELEASE), now);
      if (sends.length) await this.enqueue(sends);
      released += sends.length;
    }
    const dead = now.getTime() - this.lastLivenessCheck >= this.options.livenessEveryMs ? await this.deadClaimers(now) : [];
    if (dead.length || now.getTime() - this.lastMaintenance >= this.options.maintenanceEveryMs) {
      this.lastMaintenance = now.getTime();
      // one transaction: a send failed without its later steps cancelled would leave them scheduled for ever
      const interrupted = await this.db.$transaction((tx) => failInterruptedSends(tx, this.options.interruptedAfterMs, now, dead));
      const stale = await staleQueuedSends(this.db, new Date(now.getTime() - this.options.checkJobAfterMs));
      const lostJobs = await this.findLostJobs(stale);
      const requeued = await this.db.$transaction((tx) => requeueSends(tx, lostJobs, now));
      const lost = requeued + (await this.db.$transaction((tx) => requeueLostSends(tx, this.options.lostAfterMs, now)));
      if (interrupted || lost) this.logger.warn("swept stuck sends", { interrupted, lost, deadSenders: dead.length });
    }
    return released;
  }

  /** Claimers absent at this check and the one before (a live process refreshes its key in between). */
  private async deadClaimers(now: Date): Promise<string[]> {
    this.lastLivenessCheck = now.getTime();
    const claimers = await claimersOfSendingSends(this.db, new Date(now.getTime() - this.options.livenessEveryMs));
    const absent = new Set(await this.findAbsent(claimers));
    const dead = [...absent].filter((id) => this.suspects.has(id));
    this.suspects = absent;
    return dead;
  }
}
