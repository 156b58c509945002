/**
 * Tests that need a server npm cannot install (PgBouncer, Dovecot: Debian packages that
 * `bash .ci/install-test-servers.sh` installs as root) skip on a machine without it, with the
 * reason in the runner's summary, so a newcomer's `npm test` is green. Under CI they run
 * whatever the machine has, and fail loudly where the server cannot be started: CI proves them.
 */

/** True when the CI variable is set (to anything but "", "0" or "false"). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/**
 * The `skip` option of a test or suite that needs `server`: false when it can run (or under
 * CI, where it must), else the reason shown beside each skipped test.
 */
export function skipWithoutSystemServer(server: string, unavailable: string | undefined, env: NodeJS.ProcessEnv = process.env): string | false {
  if (unavailable === undefined || isCi(env)) return false;
  return `needs ${server}: ${unavailable}`;
}
