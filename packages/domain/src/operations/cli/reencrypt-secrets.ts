// Re-encrypts every stored secret under the current ENCRYPTION_KEY, bound to its
// row and column, after a key rotation (ENCRYPTION_PREVIOUS_KEYS lists the keys
// it replaces) or an upgrade that left values in an older format. Idempotent:
// values already under the current key and format are left as they are.
import { createLogger, Keyring, loadConfig } from "@outreach/core";
import { createDbClient, dbClientOptions } from "@outreach/db";
import { reencryptSecrets } from "../reencrypt-secrets.js";

const MAX_LISTED_FAILURES = 20;

const config = loadConfig("api");
const logger = createLogger({ service: "reencrypt", level: config.logLevel });
const keyring = Keyring.fromConfig(config);
const db = createDbClient(config.databaseDirectUrl, { ...dbClientOptions(config), poolMax: 1, transactionPooling: false });
try {
  if (config.encryptionKeyIsDevelopment) logger.warn("the current key is the development key: set ENCRYPTION_KEY to a key of your own before re-encrypting anything real");
  logger.info(`re-encrypting under the current key (key id ${keyring.currentId}), ${keyring.previous.length} previous key(s) configured`);
  const report = await reencryptSecrets(db, keyring);
  for (const c of report.columns) {
    logger.info(
      `${c.table}.${c.column}: ${c.reencrypted} re-encrypted, ${c.alreadyCurrent} already under the current key` +
        (c.changedMeanwhile ? `, ${c.changedMeanwhile} changed meanwhile (left as written)` : "") +
        (c.failed ? `, ${c.failed} FAILED` : ""),
    );
  }
  if (report.failures.length > 0) {
    for (const f of report.failures.slice(0, MAX_LISTED_FAILURES)) logger.error(`${f.table}.${f.column} row ${f.row}: ${f.reason}`);
    if (report.failures.length > MAX_LISTED_FAILURES) logger.error(`... and ${report.failures.length - MAX_LISTED_FAILURES} more`);
    logger.error(
      `re-encryption incomplete: ${report.failures.length} value(s) decrypt under none of the configured keys, or were sealed for another row or column. ` +
        "Add the key that sealed them to ENCRYPTION_PREVIOUS_KEYS and run again; do not remove any key until this succeeds. " +
        "A value sealed for another row was moved there by a database write: set that secret again through the API.",
    );
    process.exitCode = 1;
  } else if (report.columns.some((c) => c.changedMeanwhile > 0)) {
    logger.warn("some values were rewritten while this ran; run it again to check them");
  } else {
    logger.info("every secret is sealed under the current key, bound to its row and column");
  }
} catch (err) {
  logger.error(`re-encryption failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
