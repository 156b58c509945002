import { randomUUID } from "node:crypto";
import type { RedisClient } from "@outreach/core";

/**
 * Tells the other sender processes that one of them holds an idle SMTP session
 * of an account whose leases are all taken while this process has a send for
 * it waiting. The holder closes that idle session at once, which frees its
 * lease, instead of the waiting send sitting out the holder's idle timeout.
 */
export interface SessionWantedSignal {
  /** `mailbox`: the lease key of a mailbox whose sessions are all taken (an idle one of that mailbox is wanted) */
  announce(accountId: string, mailbox?: string): void;
  onWanted(handler: (accountId: string, mailbox: string | undefined) => void): void;
  close(): Promise<void>;
}

/** Over Redis pub/sub: `subscriber` is a connection of its own (it enters subscriber mode). */
export class RedisSessionWantedSignal implements SessionWantedSignal {
  private readonly origin = randomUUID();
  private handler: ((accountId: string, mailbox: string | undefined) => void) | undefined;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly channel: string,
  ) {
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const [origin, accountId, mailbox] = message.split(" ");
      if (origin !== this.origin && accountId) this.handler?.(accountId, mailbox || undefined);
    });
    // without the subscription this sender only misses hints: idle sessions still close on their timer
    void subscriber.subscribe(channel).catch(() => undefined);
  }

  announce(accountId: string, mailbox?: string): void {
    // a hint, not a message: a lost one leaves the other senders' idle sessions to close on their timer
    void this.publisher.publish(this.channel, `${this.origin} ${accountId} ${mailbox ?? ""}`).catch(() => undefined);
  }

  onWanted(handler: (accountId: string, mailbox: string | undefined) => void): void {
    this.handler = handler;
  }

  async close(): Promise<void> {
    // shutting down: the connection goes with the process
    await this.subscriber.quit().catch(() => undefined);
  }
}
