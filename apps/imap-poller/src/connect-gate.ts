import { IMAP_CONNECTS_IN_FLIGHT, IMAP_CONNECTS_IN_FLIGHT_PER_ACCOUNT, IMAP_CONNECTS_IN_FLIGHT_PER_HOST } from "@outreach/core";

/**
 * Bounds the IMAP connections being opened at once, per host, per account
 * and in all: a replica that starts with hundreds of inboxes (or takes over a
 * dead one's) opens them a few at a time per server instead of all in the
 * same moment, which mail providers throttle or refuse. Waiters are admitted
 * in turn between accounts (round-robin), in arrival order within one, so an
 * account with thousands of inboxes (or slow servers) cannot keep another
 * account's inbox waiting behind all of its own.
 */
export class ConnectGate {
  private readonly openingPerHost = new Map<string, number>();
  private readonly openingPerAccount = new Map<string, number>();
  private opening = 0;
  /** waiters per account, accounts in the order they take turns */
  private readonly waiting = new Map<string, Array<{ host: string; go: () => void }>>();

  constructor(
    private readonly perHost = IMAP_CONNECTS_IN_FLIGHT_PER_HOST,
    private readonly total = IMAP_CONNECTS_IN_FLIGHT,
    private readonly perAccount = IMAP_CONNECTS_IN_FLIGHT_PER_ACCOUNT,
  ) {}

  async run<T>(host: string, open: () => Promise<T>, account = ""): Promise<T> {
    // a free slot now is one no waiter can use (admit() runs whenever one frees)
    if (this.free(host, account)) this.take(host, account);
    // admit() takes the slot on the waiter's behalf before waking it
    else await new Promise<void>((go) => this.enqueue(account, { host, go }));
    try {
      return await open();
    } finally {
      this.give(host, account);
      this.admit();
    }
  }

  private enqueue(account: string, waiter: { host: string; go: () => void }): void {
    const queue = this.waiting.get(account);
    if (queue) queue.push(waiter);
    else this.waiting.set(account, [waiter]);
  }

  private free(host: string, account: string): boolean {
    return this.opening < this.total && (this.openingPerHost.get(host) ?? 0) < this.perHost && (this.openingPerAccount.get(account) ?? 0) < this.perAccount;
  }

  private take(host: string, account: string): void {
    this.opening += 1;
    this.openingPerHost.set(host, (this.openingPerHost.get(host) ?? 0) + 1);
    this.openingPerAccount.set(account, (this.openingPerAccount.get(account) ?? 0) + 1);
  }

  private give(host: string, account: string): void {
    this.opening -= 1;
    for (const [counts, key] of [
      [this.openingPerHost, host],
      [this.openingPerAccount, account],
    ] as const) {
      const left = (counts.get(key) ?? 1) - 1;
      if (left <= 0) counts.delete(key);
      else counts.set(key, left);
    }
  }

  /** One waiter per account per turn, accounts in turn, until nothing more fits. */
  private admit(): void {
    let admitted = true;
    while (admitted && this.opening < this.total) {
      admitted = false;
      for (const [account, queue] of [...this.waiting]) {
        const i = queue.findIndex((waiter) => this.free(waiter.host, account));
        if (i === -1) continue;
        const [next] = queue.splice(i, 1);
        // the account goes to the back of the turns
        this.waiting.delete(account);
        if (queue.length > 0) this.waiting.set(account, queue);
        this.take(next!.host, account);
        next!.go();
        admitted = true;
        if (this.opening >= this.total) return;
      }
    }
  }
}
