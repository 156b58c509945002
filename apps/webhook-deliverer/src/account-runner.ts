import { signPayloadWithSecrets, WEBHOOK_CONCURRENCY_PER_ACCOUNT, type Logger, errorFields } from "@outreach/core";
import type { Db } from "@outreach/db";
import { claimDueDeliveries, releaseDeliveryHolds, skipDelivery, type AttemptResult, type DeliveryToAttempt, type SecretCache, type WebhookHttpClient } from "@outreach/domain";
import type { AttemptRecorder } from "./attempt-recorder.js";

/** Claimed deliveries kept ready beyond the ones in flight: one claim per this many attempts under load. */
const CLAIM_BATCH = 50;
/** Claim again when fewer than this many are ready. */
const LOW_WATER = WEBHOOK_CONCURRENCY_PER_ACCOUNT;

export interface RunnerDeps {
  db: Db;
  http: WebhookHttpClient;
  recorder: AttemptRecorder;
  secrets: SecretCache;
  logger: Logger;
  /** how long a claim holds a delivery (renewed by the feeder while held) */
  holdMs: number;
  /** a delivery is to be attempted again at this time */
  retryAt: (at: Date) => void;
  /** how long a runner keeps its account before handing it back (other accounts may be waiting for room) */
  sliceMs: number;
  /** the slice is over: the runner only waits for its requests now, and its room can go to another account */
  onSliceEnd: () => void;
}

/**
 * Delivers one account's due deliveries while this process holds the
 * account's lease: claims them in batches, makes at most 10 requests at once,
 * records each outcome, and ends (calling `onIdle`) when nothing is due, in
 * flight or ready, or when its time slice is over: then it starts nothing
 * more, gives back what it claimed and had not started, and ends once its
 * requests are answered, so a process serving as many accounts as it can
 * still takes the others in turn (a runner waiting for hanging requests
 * keeps the account's lease, so no other process adds to its 10, but no
 * longer counts against this process's accounts). `poke` says new deliveries may be due: the runner claims
 * once more before it ends, so a delivery created while it winds down is not
 * left for the next poll.
 */
export class AccountRunner {
  private ready: DeliveryToAttempt[] = [];
  /** claimed and not yet recorded: their hold is renewed with the lease */
  readonly held = new Set<string>();
  private inFlight = 0;
  private claiming = false;
  private more = false;
  private stopped = false;
  private ended = false;
  private settled: Array<() => void> = [];
  private readonly sliceEndsAt: number;
  private sliceEnded = false;
  private sliceTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly accountId: string,
    private readonly deps: RunnerDeps,
    private readonly onIdle: (runner: AccountRunner) => void,
  ) {
    this.sliceEndsAt = Date.now() + deps.sliceMs;
  }

  /** it found nothing more to do and handed itself to onIdle */
  get done(): boolean {
    return this.ended;
  }

  /** its slice is over and it starts nothing more (it waits for requests in flight) */
  get draining(): boolean {
    return this.sliceEnded;
  }

  start(): void {
    // requests that hang complete nothing that would look at the clock: the slice's end is a timer
    this.sliceTimer = setTimeout(() => void this.pump(), Math.max(0, this.sliceEndsAt - Date.now()));
    this.sliceTimer.unref();
    void this.pump();
  }

  poke(): void {
    this.more = true;
    void this.pump();
  }

  /** Stops claiming; answers the ids claimed but not started (their hold can be released). */
  stop(): string[] {
    this.stopped = true;
    clearTimeout(this.sliceTimer);
    const unstarted = this.ready.map((d) => d.id);
    for (const id of unstarted) this.held.delete(id);
    this.ready = [];
    return unstarted;
  }

  /** Resolves when no request of this runner is in flight. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.settled.push(resolve));
  }

  private async pump(): Promise<void> {
    if (this.claiming || this.ended) return;
    try {
      while (!this.stopped) {
        if (Date.now() >= this.sliceEndsAt) return await this.endSlice();
        this.startAttempts();
        if (this.ready.length >= LOW_WATER) return;
        const room = CLAIM_BATCH + WEBHOOK_CONCURRENCY_PER_ACCOUNT - this.inFlight - this.ready.length;
        this.more = false;
        this.claiming = true;
        let claimed: DeliveryToAttempt[];
        try {
          claimed = await claimDueDeliveries(this.deps.db, this.accountId, room, this.deps.holdMs, this.deps.secrets);
        } finally {
          this.claiming = false;
        }
        if (this.stopped) {
          await releaseDeliveryHolds(
            this.deps.db,
            claimed.map((d) => d.id),
          );
          return;
        }
        for (const delivery of claimed) this.held.add(delivery.id);
        this.ready.push(...claimed);
        if (claimed.length === 0 && !this.more) {
          // slots may have freed while claiming (their pumps returned early): fill them first
          this.startAttempts();
          this.endIfIdle();
          return;
        }
      }
    } catch (err) {
      this.deps.logger.warn("claiming webhook deliveries failed; trying again", { accountId: this.accountId, ...errorFields(err) });
      this.startAttempts();
      if (this.inFlight === 0 && this.ready.length === 0) this.endIfIdle();
      else setTimeout(() => void this.pump(), 1_000).unref();
    }
  }

  private async endSlice(): Promise<void> {
    if (!this.sliceEnded) {
      this.sliceEnded = true;
      this.deps.onSliceEnd();
    }
    const unstarted = this.ready.map((d) => d.id);
    this.ready = [];
    for (const id of unstarted) this.held.delete(id);
    await releaseDeliveryHolds(this.deps.db, unstarted);
    this.endIfIdle();
  }

  private startAttempts(): void {
    while (!this.stopped && this.inFlight < WEBHOOK_CONCURRENCY_PER_ACCOUNT && this.ready.length > 0) {
      const delivery = this.ready.shift()!;
      this.inFlight += 1;
      void this.attempt(delivery).finally(() => {
        this.inFlight -= 1;
        if (this.inFlight === 0) for (const resolve of this.settled.splice(0)) resolve();
        if (this.stopped) return;
        this.startAttempts();
        void this.pump();
      });
    }
  }

  private endIfIdle(): void {
    if (this.ended || this.stopped || this.inFlight > 0 || this.ready.length > 0 || this.claiming) return;
    this.ended = true;
    clearTimeout(this.sliceTimer);
    this.onIdle(this);
  }

  /** One request; the slot is free once the answer is in, and the outcome is recorded meanwhile (group commit). */
  private async attempt(delivery: DeliveryToAttempt): Promise<void> {
    if (delivery.webhookDisabled && !delivery.isTest) {
      await skipDelivery(this.deps.db, delivery.id, "the webhook was disabled").catch((err) =>
        this.deps.logger.warn("could not skip a delivery of a disabled webhook", { deliveryId: delivery.id, ...errorFields(err) }),
      );
      this.held.delete(delivery.id);
      return;
    }
    let result: AttemptResult;
    try {
      result = await this.deps.http.post({ url: delivery.url, body: delivery.body, signature: signPayloadWithSecrets(delivery.secrets, delivery.body) });
    } catch (err) {
      // never expected (the client answers every failure as a result): let the hold lapse, it is attempted again
      this.deps.logger.error("webhook attempt failed unexpectedly", { deliveryId: delivery.id, ...errorFields(err) });
      this.held.delete(delivery.id);
      return;
    }
    void this.recordOutcome(delivery, result);
  }

  private async recordOutcome(delivery: DeliveryToAttempt, result: AttemptResult): Promise<void> {
    try {
      const recorded = await this.deps.recorder.record({ delivery, result, at: new Date() });
      if (recorded.webhookDisabled) this.deps.logger.warn("webhook disabled after consecutive failed deliveries", { webhookId: delivery.webhookId, accountId: this.accountId });
      if (recorded.nextAttemptAt) this.deps.retryAt(recorded.nextAttemptAt);
    } catch (err) {
      // not recorded: the hold lapses and the delivery is attempted again
      this.deps.logger.warn("webhook attempt not recorded", { deliveryId: delivery.id, ...errorFields(err) });
    } finally {
      this.held.delete(delivery.id);
    }
  }
}
