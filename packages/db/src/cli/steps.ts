// The steps the database CLIs share (cli/migrate.ts, cli/seed.ts, cli/migrate-and-seed.ts).
import { ConfigError, createLogger, loadConfig, type Config, type Logger } from "@outreach/core";
import { createDbClient, dbClientOptions } from "../client.js";
import { applyMigrations, ensureDatabase } from "../migrate.js";
import { MIGRATIONS_DIR } from "../paths.js";
import { seedPlans } from "../seed.js";

/** The configuration and a logger, or undefined (and exit code 1) after printing why the configuration is refused. */
export function cliSetup(service: string): { config: Config; logger: Logger } | undefined {
  try {
    const config = loadConfig("api");
    return { config, logger: createLogger({ service, level: config.logLevel }) };
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : `${service} failed: ${(err as Error).message}`);
    process.exitCode = 1;
    return undefined;
  }
}

/**
 * Creates the database if missing and applies pending migrations. Direct (DATABASE_DIRECT_URL,
 * else DATABASE_URL; never through a transaction pooler: the run holds a session advisory lock),
 * and without the apps' timeouts: a migration may rewrite a large table, and runs once per deploy.
 */
export async function migrateDatabase(config: Config, logger: Logger): Promise<void> {
  await ensureDatabase(config.databaseDirectUrl, logger);
  const result = await applyMigrations(config.databaseDirectUrl, MIGRATIONS_DIR, logger);
  logger.info(`migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
}

/** Seeds the default plans (idempotent), direct like the migrations it follows. */
export async function seedDatabase(config: Config, logger: Logger): Promise<void> {
  const db = createDbClient(config.databaseDirectUrl, { ...dbClientOptions(config), poolMax: 1, transactionPooling: false });
  try {
    await seedPlans(db);
    logger.info("default plans seeded");
  } finally {
    await db.$disconnect();
  }
}
