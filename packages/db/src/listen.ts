import pg from "pg";
import type { Logger } from "@outreach/core";

/**
 * LISTENs on PostgreSQL channels on a connection of its own and calls the
 * channel's handler on each notification; a lost connection is opened again.
 * Notifications are wake-ups only: whoever listens also polls, so one missed
 * while the connection was down only delays.
 *
 * Give it a direct connection (DATABASE_DIRECT_URL), never one through a
 * transaction-pooling PgBouncer: there the LISTEN would be run on whichever
 * server connection served that one statement, which then goes back to the pool
 * and to other clients, and the notifications would not come back here.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly handlers: Record<string, () => void>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on("notification", (message) => this.handlers[message.channel]?.());
    client.on("error", (err) => {
      this.logger.warn("LISTEN connection lost; polling until it is back", { error: err.message });
      client.end().catch(() => undefined);
      if (this.client === client) this.client = undefined;
      setTimeout(() => void this.connect(), 1_000).unref();
    });
    try {
      await client.connect();
      for (const channel of Object.keys(this.handlers)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      // anything notified while no one listened is found now
      for (const handler of Object.values(this.handlers)) handler();
    } catch (err) {
      this.logger.warn("could not LISTEN; polling", { error: (err as Error).message });
      client.end().catch(() => undefined);
      setTimeout(() => void this.connect(), 2_000).unref();
    }
  }
}
