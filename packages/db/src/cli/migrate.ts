// Creates the database if missing and applies pending migrations.
import { createLogger, loadConfig } from "@outreach/core";
import { applyMigrations, ensureDatabase } from "../migrate.js";
import { MIGRATIONS_DIR } from "../paths.js";

const config = loadConfig("api");
const logger = createLogger({ service: "migrate", level: config.logLevel });
try {
  // direct (never through a transaction pooler: the run holds a session advisory lock), and
  // without the apps' timeouts: a migration may rewrite a large table, and runs once per deploy
  await ensureDatabase(config.databaseDirectUrl, logger);
  const result = await applyMigrations(config.databaseDirectUrl, MIGRATIONS_DIR, logger);
  logger.info(`migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
} catch (err) {
  logger.error(`migration failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
