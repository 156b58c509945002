// Waits until the database has every migration this build carries (`pnpm db:wait`, the image's
// `node tools/wait-for-schema.js`), e.g. before an app starts in a rollout where the migration
// runs separately. It applies nothing. Checks every 2 s; gives up after
// SCHEMA_WAIT_TIMEOUT_SECONDS [600] with exit code 1. Reads DATABASE_DIRECT_URL, else DATABASE_URL.
import { MIGRATIONS_DIR } from "../paths.js";
import { waitForSchema } from "../wait-for-schema.js";
import { cliSetup } from "./steps.js";

const DEFAULT_TIMEOUT_SECONDS = 600;

function timeoutSeconds(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return DEFAULT_TIMEOUT_SECONDS;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

const setup = cliSetup("wait-for-schema");
const timeout = timeoutSeconds(process.env.SCHEMA_WAIT_TIMEOUT_SECONDS);
if (setup && timeout === undefined) {
  console.error(`Invalid configuration: SCHEMA_WAIT_TIMEOUT_SECONDS: must be a positive number of seconds (got ${JSON.stringify(process.env.SCHEMA_WAIT_TIMEOUT_SECONDS)})`);
  process.exitCode = 1;
} else if (setup && timeout !== undefined) {
  const { config, logger } = setup;
  const result = await waitForSchema(config.databaseDirectUrl, MIGRATIONS_DIR, { timeoutMs: timeout * 1000, log: logger });
  if (!result.ok) {
    logger.error(`schema not ready after ${timeout} s (SCHEMA_WAIT_TIMEOUT_SECONDS), still ${result.reason}; the migrations are applied by \`node tools/migrate.js\` (\`pnpm db:migrate\`)`);
    process.exitCode = 1;
  }
}
