// Creates the database if missing and applies pending migrations (`pnpm db:migrate`).
import { cliSetup, migrateDatabase } from "./steps.js";

const setup = cliSetup("migrate");
if (setup) {
  try {
    await migrateDatabase(setup.config, setup.logger);
  } catch (err) {
    setup.logger.error(`migration failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
