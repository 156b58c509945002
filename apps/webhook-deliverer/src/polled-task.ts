/**
 * A task run on wake-ups and every `pollMs` as a fallback: a wake while it
 * runs makes it run once more afterwards, never twice at once.
 */
export class PolledTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.schedulePoll();
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedulePoll();
    }, this.pollMs);
    this.timer.unref();
  }
}
