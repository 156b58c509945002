import { ConfigError, loadConfig, type AppName, type Config } from "@outreach/core";

/** Loads the configuration or exits 1 with a message naming the bad variable. */
export function loadConfigOrExit(app: AppName): Config {
  try {
    return loadConfig(app);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${app}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}
