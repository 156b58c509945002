import { accountOfKeyEvent, type Logger, errorFields, type RedisClient } from "@outreach/core";
import type { AuthContext } from "./auth.js";

export interface ApiKeyCacheOptions {
  /** How long a resolved key is honoured without asking the database. */
  ttlMs?: number;
  /** How long a key is remembered as having been valid (see wasValid) after that. */
  rememberMs?: number;
  maxEntries?: number;
  /** How long an unknown or revoked key is answered 401 without asking the database. */
  invalidTtlMs?: number;
  maxInvalidEntries?: number;
}

/**
 * Remembers resolved API keys for a short time so an authenticated request costs
 * no database round trip. A revocation removes the key here at once and is
 * broadcast to every API replica over Redis pub/sub; if a replica misses the
 * broadcast (Redis away), the TTL bounds how long it keeps honouring the key.
 *
 * An account whose access changed (suspended or unsuspended by an operator)
 * is announced on the same channel: its keys are dropped here and looked up
 * afresh, so the change applies at once, or within ttlMs at worst.
 *
 * Unknown and revoked keys are remembered too (negative entries), so repeating
 * one costs no query either. That is always safe: tokens are random, so a token
 * that was never valid cannot become valid, and a revocation is final.
 */
export class ApiKeyCache {
  private valid = new Map<string, { auth: AuthContext; freshUntil: number; rememberedUntil: number }>();
  private invalid = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly rememberMs: number;
  private readonly maxEntries: number;
  private readonly invalidTtlMs: number;
  private readonly maxInvalidEntries: number;

  constructor(
    private readonly channel: string,
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient | null,
    private readonly logger: Logger,
    options: ApiKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.rememberMs = options.rememberMs ?? 3_600_000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.invalidTtlMs = options.invalidTtlMs ?? 10_000;
    this.maxInvalidEntries = options.maxInvalidEntries ?? 50_000;
    if (subscriber) {
      subscriber.on("message", (ch: string, message: string) => {
        if (ch !== channel) return;
        const accountId = accountOfKeyEvent(message);
        if (accountId !== undefined) this.forgetAccount(accountId);
        else this.forget(message);
      });
      // a replica that was disconnected may have missed revocations: start afresh
      subscriber.on("ready", () => this.valid.clear());
      const subscribe = () => subscriber.subscribe(channel).catch((err) => logger.warn("could not subscribe to key revocations", { ...errorFields(err) }));
      // Only once ready: a SUBSCRIBE sent while the connection is still in its
      // handshake makes ioredis fail its own ready check and reconnect without it.
      // Later reconnects resubscribe by themselves.
      if (subscriber.status === "ready") void subscribe();
      else subscriber.once("ready", () => void subscribe());
    }
  }

  /** The key's account while its entry is fresh; undefined means "ask the database". */
  get(tokenHash: string): AuthContext | undefined {
    const entry = this.valid.get(tokenHash);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.rememberedUntil < now) {
      this.valid.delete(tokenHash);
      return undefined;
    }
    return entry.freshUntil >= now ? entry.auth : undefined;
  }

  /**
   * Whether this key resolved recently (within rememberMs). Not proof that it is
   * still valid, only that looking it up is worth a query.
   */
  wasValid(tokenHash: string): boolean {
    this.get(tokenHash);
    return this.valid.has(tokenHash);
  }

  set(tokenHash: string, auth: AuthContext): void {
    // a revocation that raced with this lookup wins
    if (this.isInvalid(tokenHash)) return;
    this.valid.delete(tokenHash);
    if (this.valid.size >= this.maxEntries) this.valid.delete(this.valid.keys().next().value!);
    const now = Date.now();
    this.valid.set(tokenHash, { auth, freshUntil: now + this.ttlMs, rememberedUntil: now + this.ttlMs + this.rememberMs });
  }

  /** Whether the key is known to be unknown or revoked. */
  isInvalid(tokenHash: string): boolean {
    const expiresAt = this.invalid.get(tokenHash);
    if (expiresAt === undefined) return false;
    if (expiresAt < Date.now()) {
      this.invalid.delete(tokenHash);
      return false;
    }
    return true;
  }

  setInvalid(tokenHash: string): void {
    this.invalid.delete(tokenHash);
    if (this.invalid.size >= this.maxInvalidEntries) this.invalid.delete(this.invalid.keys().next().value!);
    this.invalid.set(tokenHash, Date.now() + this.invalidTtlMs);
  }

  /** Forgets a key here and on every other replica. */
  async revoke(tokenHash: string): Promise<void> {
    this.forget(tokenHash);
    await this.publisher.publish(this.channel, tokenHash).catch((err) => this.logger.warn("could not broadcast a key revocation", { ...errorFields(err) }));
  }

  /**
   * Drops the account's keys from this replica (they are looked up again, and
   * stay valid): its access changed, e.g. an operator suspended it. Other
   * replicas hear it from announceAccountAccessChange.
   */
  forgetAccount(accountId: string): void {
    for (const [tokenHash, entry] of this.valid) if (entry.auth.accountId === accountId) this.valid.delete(tokenHash);
  }

  private forget(tokenHash: string): void {
    this.valid.delete(tokenHash);
    this.setInvalid(tokenHash);
  }
}
