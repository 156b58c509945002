/**
 * Bounds the IMAP connections being opened at once, per host and in all: a
 * replica that starts with hundreds of inboxes (or takes over a dead one's)
 * opens them a few at a time per server instead of all in the same moment,
 * which mail providers throttle or refuse. Waiters go in arrival order.
 */
export class ConnectGate {
  private readonly openingPerHost = new Map<string, number>();
  private opening = 0;
  private readonly waiting: Array<{ host: string; go: () => void }> = [];

  constructor(
    private readonly perHost = 10,
    private readonly total = 50,
  ) {}

  async run<T>(host: string, open: () => Promise<T>): Promise<T> {
    if (this.free(host)) this.take(host);
    // admit() takes the slot on the waiter's behalf before waking it
    else await new Promise<void>((go) => this.waiting.push({ host, go }));
    try {
      return await open();
    } finally {
      this.give(host);
      this.admit();
    }
  }

  private free(host: string): boolean {
    return this.opening < this.total && (this.openingPerHost.get(host) ?? 0) < this.perHost;
  }

  private take(host: string): void {
    this.opening += 1;
    this.openingPerHost.set(host, (this.openingPerHost.get(host) ?? 0) + 1);
  }

  private give(host: string): void {
    this.opening -= 1;
    const left = (this.openingPerHost.get(host) ?? 1) - 1;
    if (left <= 0) this.openingPerHost.delete(host);
    else this.openingPerHost.set(host, left);
  }

  private admit(): void {
    for (let i = 0; i < this.waiting.length && this.opening < this.total; ) {
      const next = this.waiting[i]!;
      if (!this.free(next.host)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.host);
      next.go();
    }
  }
}
