/**
 * A value computed at most once per `ttlMs`, with at most one computation in
 * flight: requests arriving meanwhile wait for that one instead of starting
 * their own. A computation that fails is not kept (the next request tries
 * again). For answers that unauthenticated clients may ask for as often as
 * they like (GET /plans, /readyz), so a flood of them cannot load the database.
 */
export class CachedValue<T> {
  private cached: { value: T; freshUntil: number } | undefined;
  private pending: Promise<T> | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly compute: () => Promise<T>,
  ) {}

  get(): Promise<T> {
    if (this.cached && this.cached.freshUntil > Date.now()) return Promise.resolve(this.cached.value);
    this.pending ??= this.compute()
      .then((value) => {
        this.cached = { value, freshUntil: Date.now() + this.ttlMs };
        return value;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}
