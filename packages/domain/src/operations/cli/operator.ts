// Operator commands for plans and accounts: `pnpm ops <command>` (see the README's Billing and Operations sections).
import { announceAccountAccessChange, ConfigError, createLogger, createRedis, InboxLeases, loadConfig, redisKeys, type RedisClient } from "@outreach/core";
import { createDbClient, dbClientOptions, type Db } from "@outreach/db";
import { runOperatorCommand } from "./operator-command.js";

let db: Db | undefined;
let redis: RedisClient | undefined;
try {
  const config = loadConfig("api");
  db = createDbClient(config.databaseDirectUrl, { ...dbClientOptions(config), poolMax: 1, transactionPooling: false });
  // Redis only for the commands that need it (schedule's inbox leases, suspend's broadcast), connected on first use
  const connect = (): RedisClient => {
    if (!redis) {
      redis = createRedis(config, "producer", { maxRetriesPerRequest: 1, retryStrategy: () => null });
      redis.on("error", () => undefined);
    }
    return redis;
  };
  const outcome = await runOperatorCommand(db, process.argv.slice(2), {
    leases: { heldOf: (ids) => new InboxLeases(connect(), (id) => redisKeys.inboxLease(config, id), "ops").heldOf(ids) },
    announceAccountChange: (accountId) => announceAccountAccessChange(connect(), config, accountId),
    logger: createLogger({ service: "ops", level: config.logLevel }),
  });
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db?.$disconnect();
  redis?.disconnect();
}
