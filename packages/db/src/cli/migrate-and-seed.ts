// What a deploy runs once before the apps (the image's `node tools/migrate.js`): creates the
// database if missing, applies pending migrations, then seeds the default plans. Each step is
// idempotent, so a re-run (or a concurrent one: migrations take an advisory lock) is harmless.
// Exit code 0 on success, 1 with the reason on failure.
import { cliSetup, migrateDatabase, seedDatabase } from "./steps.js";

const setup = cliSetup("migrate");
if (setup) {
  const { config, logger } = setup;
  let step = "migration";
  try {
    await migrateDatabase(config, logger);
    step = "seed";
    await seedDatabase(config, logger);
  } catch (err) {
    logger.error(`${step} failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
