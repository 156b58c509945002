// Seeds the default plans (idempotent; `pnpm db:seed`).
import { cliSetup, seedDatabase } from "./steps.js";

const setup = cliSetup("seed");
if (setup) {
  try {
    await seedDatabase(setup.config, setup.logger);
  } catch (err) {
    setup.logger.error(`seed failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
