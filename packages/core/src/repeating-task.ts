/**
 * Runs `task` at once, then `everyMs` after each run ends, until stop(),
 * which waits for a run in progress. A failed run is reported to `onError`
 * and the next one runs on time. With `unref`, the wait between runs does not
 * keep the process alive.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly everyMs: number,
    private readonly onError: (err: Error) => void,
    private readonly options: { unref?: boolean } = {},
  ) {}

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.task().then(
        () => undefined,
        (err) => this.onError(err as Error),
      );
      await this.running;
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.everyMs);
      if (this.options.unref) this.timer.unref();
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
