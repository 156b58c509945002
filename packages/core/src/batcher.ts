interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: calls made while `maxInFlight` flushes are under way share the
 * next flush (one statement or command for all of them). A call on its own is
 * flushed at once, so batching costs no latency when there is no load.
 * `flush` returns one result per item, in order; if it throws, every call of
 * that flush rejects with the error.
 */
export class Batcher<I, O> {
  private readonly queue: Array<Pending<I, O>> = [];
  private inFlight = 0;

  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
    private readonly maxInFlight = 1,
  ) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight += 1;
      const items = batch.map((p) => p.item);
      void Promise.resolve()
        .then(() => this.flush(items))
        .then(
          (results) => batch.forEach((p, i) => p.resolve(results[i] as O)),
          (error) => batch.forEach((p) => p.reject(error)),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.kick();
        });
    }
  }
}
