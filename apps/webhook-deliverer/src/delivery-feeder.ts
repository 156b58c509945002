import { randomUUID } from "node:crypto";
import { WEBHOOK_ACCOUNTS_PER_PROCESS, type Logger, errorFields, ignoreFailure } from "@outreach/core";
import type { Db } from "@outreach/db";
import { leaseDueAccounts, releaseAccountLeases, releaseDeliveryHolds, renewAccountLeases, type SecretCache, type WebhookHttpClient } from "@outreach/domain";
import { AccountRunner } from "./account-runner.js";
import type { AttemptRecorder } from "./attempt-recorder.js";
import { PolledTask } from "./polled-task.js";

/** An account lease, and a claimed delivery's hold, last this long unless renewed (a dead process's work is taken over after it). */
export const LEASE_TTL_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
/** How long one account keeps its runner before it is handed back and taken again in turn. */
const SLICE_MS = 15_000;

export interface FeederDeps {
  db: Db;
  http: WebhookHttpClient;
  recorder: AttemptRecorder;
  secrets: SecretCache;
  logger: Logger;
  pollMs?: number;
  /** how long shutdown waits for requests in flight */
  drainMs: number;
  /** how many accounts this process delivers for at once (default WEBHOOK_ACCOUNTS_PER_PROCESS) */
  maxAccounts?: number;
  /** how long an account keeps its runner before it is handed back (default 15 s) */
  sliceMs?: number;
}

/**
 * Feeds this process's deliveries: leases accounts that have due deliveries
 * (woken when deliveries are created, when a retry falls due, and by a poll)
 * and runs an AccountRunner for each, renewing the leases and holds while
 * they work. An account whose receiver hangs occupies its own runner and
 * nothing else: every other account is leased and delivered beside it.
 */
export class DeliveryFeeder {
  readonly holder = randomUUID();
  private readonly runners = new Map<string, AccountRunner>();
  private readonly scan: PolledTask;
  private renewTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryTimerAt = Infinity;
  private readonly retryTimes: number[] = [];
  private stopped = false;

  constructor(private readonly deps: FeederDeps) {
    this.scan = new PolledTask(() => this.leaseAndRun(), deps.pollMs ?? 1_000);
  }

  start(): void {
    this.scan.start();
    this.renewTimer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.renewTimer.unref();
  }

  /** Deliveries may have been created or fallen due: runners claim again, and accounts not served are leased. */
  wake(): void {
    if (this.stopped) return;
    for (const runner of this.runners.values()) runner.poke();
    this.scan.wake();
  }

  /** Wakes at `at` (a retry's time), so a retry goes out on time rather than at the next poll. */
  wakeAt(at: Date): void {
    const time = at.getTime();
    this.retryTimes.push(time);
    this.retryTimes.sort((a, b) => a - b);
    this.armRetryTimer();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    clearTimeout(this.retryTimer);
    await this.scan.stop();
    const runners = [...this.runners.values()];
    const unstarted = runners.flatMap((runner) => runner.stop());
    await releaseDeliveryHolds(this.deps.db, unstarted).catch(ignoreFailure(this.deps.logger, "handing back deliveries not started at shutdown", "their holds lapse and another replica takes them"));
    const drained = Promise.all(runners.map((runner) => runner.idle()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, this.deps.drainMs)))]);
    clearTimeout(timer);
    await this.deps.recorder.flush();
    await releaseAccountLeases(this.deps.db, this.holder, [...this.runners.keys()]).catch(ignoreFailure(this.deps.logger, "releasing account leases at shutdown", "they expire by themselves"));
  }

  private armRetryTimer(): void {
    const next = this.retryTimes[0];
    if (next === undefined || next >= this.retryTimerAt || this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimerAt = next;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimerAt = Infinity;
        const now = Date.now();
        while (this.retryTimes.length > 0 && this.retryTimes[0]! <= now) this.retryTimes.shift();
        this.wake();
        this.armRetryTimer();
      },
      Math.max(0, next - Date.now()),
    );
    this.retryTimer.unref();
  }

  private async leaseAndRun(): Promise<void> {
    // runners whose slice is over only wait for their requests: their room goes to other accounts
    const active = [...this.runners.values()].filter((runner) => !runner.draining).length;
    const room = (this.deps.maxAccounts ?? WEBHOOK_ACCOUNTS_PER_PROCESS) - active;
    if (room <= 0 || this.stopped) return;
    try {
      const accounts = await leaseDueAccounts(this.deps.db, this.holder, LEASE_TTL_MS, room, [...this.runners.keys()]);
      for (const accountId of accounts) {
        if (this.stopped) break;
        const runner = new AccountRunner(
          accountId,
          { ...this.deps, holdMs: LEASE_TTL_MS, sliceMs: this.deps.sliceMs ?? SLICE_MS, retryAt: (at) => this.wakeAt(at), onSliceEnd: () => this.scan.wake() },
          (idle) => void this.release(idle),
        );
        this.runners.set(accountId, runner);
        runner.start();
      }
    } catch (err) {
      this.deps.logger.warn("leasing accounts with due webhook deliveries failed; the next poll tries again", { ...errorFields(err) });
    }
  }

  /** A runner found nothing more to do: give its lease back, then look again (a delivery may have come meanwhile). */
  private async release(runner: AccountRunner): Promise<void> {
    try {
      await releaseAccountLeases(this.deps.db, this.holder, [runner.accountId]);
    } catch (err) {
      this.deps.logger.warn("could not release an account lease; it expires by itself", { accountId: runner.accountId, ...errorFields(err) });
    } finally {
      if (this.runners.get(runner.accountId) === runner) this.runners.delete(runner.accountId);
      this.scan.wake();
    }
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    const runners = [...this.runners.values()];
    try {
      const held = runners.flatMap((runner) => [...runner.held]);
      const kept = new Set(
        await renewAccountLeases(
          this.deps.db,
          this.holder,
          runners.map((r) => r.accountId),
          held,
          LEASE_TTL_MS,
        ),
      );
      for (const runner of runners) {
        if (kept.has(runner.accountId) || runner.done || this.runners.get(runner.accountId) !== runner) continue;
        // the lease expired and another process took the account: stop claiming for it
        this.deps.logger.warn("lost an account's webhook lease; stopping its deliveries here", { accountId: runner.accountId });
        this.runners.delete(runner.accountId);
        await releaseDeliveryHolds(this.deps.db, runner.stop());
      }
    } catch (err) {
      this.deps.logger.warn("renewing webhook leases failed; trying again", { ...errorFields(err) });
    }
  }
}
