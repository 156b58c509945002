import type { Redis } from "ioredis";
import type { Logger } from "@outreach/core";
import type { AuthContext } from "./auth.js";

/**
 * Remembers resolved API keys for a short time so an authenticated request costs
 * no database round trip. A revocation removes the key here at once and is
 * broadcast to every API replica over Redis pub/sub; if a replica misses the
 * broadcast (Redis away), the TTL bounds how long it keeps honouring the key.
 */
export class ApiKeyCache {
  private entries = new Map<string, { auth: AuthContext; expiresAt: number }>();

  constructor(
    private readonly channel: string,
    private readonly publisher: Redis,
    private readonly subscriber: Redis | null,
    private readonly logger: Logger,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 50_000,
  ) {
    if (subscriber) {
      subscriber.on("message", (ch: string, tokenHash: string) => {
        if (ch === channel) this.entries.delete(tokenHash);
      });
      // a replica that was disconnected may have missed revocations: start afresh
      subscriber.on("ready", () => this.entries.clear());
      subscriber.subscribe(channel).catch((err) => logger.warn("could not subscribe to key revocations", { error: (err as Error).message }));
    }
  }

  get(tokenHash: string): AuthContext | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.auth;
  }

  set(tokenHash: string, auth: AuthContext): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { auth, expiresAt: Date.now() + this.ttlMs });
  }

  /** Forgets a key here and on every other replica. */
  async revoke(tokenHash: string): Promise<void> {
    this.entries.delete(tokenHash);
    await this.publisher.publish(this.channel, tokenHash).catch((err) => this.logger.warn("could not broadcast a key revocation", { error: (err as Error).message }));
  }
}
