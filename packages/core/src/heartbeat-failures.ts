/** The part of a logger a heartbeat needs (winston's Logger has it). */
export interface WarnLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
  debug?(message: string, meta?: Record<string, unknown>): unknown;
}

/**
 * The failures of a heartbeat or lease renewal that runs on a timer. They are
 * never thrown (the next tick tries again), and never swallowed either: the
 * first failure is logged with its stack, then one line per `everyMs` while
 * it keeps failing (Redis down must not flood the log), and one line when it
 * works again. Losing a heartbeat can hand this process's work to another, so
 * an on-call engineer must be able to see it.
 */
export class HeartbeatFailures {
  private failingSince: number | undefined;
  private failures = 0;
  private lastLoggedAt = 0;

  constructor(
    private readonly logger: WarnLogger | undefined,
    private readonly what: string,
    private readonly context: Record<string, unknown> = {},
    private readonly everyMs = 60_000,
  ) {}

  /** Runs one tick of the heartbeat; resolves whether it worked or not. */
  async run(tick: () => Promise<unknown>): Promise<void> {
    try {
      await tick();
      this.succeeded();
    } catch (err) {
      this.failed(err);
    }
  }

  failed(err: unknown, now = Date.now()): void {
    this.failures += 1;
    const first = this.failingSince === undefined;
    this.failingSince ??= now;
    if (!first && now - this.lastLoggedAt < this.everyMs) return;
    this.lastLoggedAt = now;
    const error = err instanceof Error ? err : new Error(String(err));
    this.logger?.warn(`${this.what} failed${first ? "" : " again"}; retrying`, {
      ...this.context,
      failures: this.failures,
      failingForMs: now - this.failingSince,
      error: error.message,
      ...(first ? { stack: error.stack } : {}),
    });
  }

  succeeded(now = Date.now()): void {
    if (this.failingSince === undefined) return;
    this.logger?.info(`${this.what} works again`, { ...this.context, failures: this.failures, failedForMs: now - this.failingSince });
    this.failingSince = undefined;
    this.failures = 0;
    this.lastLoggedAt = 0;
  }
}
