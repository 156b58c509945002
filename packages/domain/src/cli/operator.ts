// Operator commands for plans and accounts: `pnpm ops <command>` (see the README's Billing section).
import { ConfigError, loadConfig } from "@outreach/core";
import { createDbClient, dbClientOptions, type Db } from "@outreach/db";
import { runOperatorCommand } from "./operator-command.js";

let db: Db | undefined;
try {
  const config = loadConfig("api");
  db = createDbClient(config.databaseDirectUrl, { ...dbClientOptions(config), poolMax: 1, transactionPooling: false });
  const outcome = await runOperatorCommand(db, process.argv.slice(2));
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db?.$disconnect();
}
