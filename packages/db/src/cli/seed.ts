// Seeds the default plans (idempotent).
import { createLogger, loadConfig } from "@outreach/core";
import { createDbClient, dbClientOptions } from "../client.js";
import { seedPlans } from "../seed.js";

const config = loadConfig("api");
const logger = createLogger({ service: "seed", level: config.logLevel });
// direct, like the migrations it follows
const db = createDbClient(config.databaseDirectUrl, { ...dbClientOptions(config), poolMax: 1, transactionPooling: false });
try {
  await seedPlans(db);
  logger.info("default plans seeded");
} catch (err) {
  logger.error(`seed failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
