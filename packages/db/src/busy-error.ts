// lock_not_available (lock_timeout) and query_canceled (statement_timeout)
const BUSY_SQLSTATES = new Set(["55P03", "57014"]);
// P2028: an interactive transaction could not start in maxWait or outlived its timeout;
// P2024: no pool connection in time (engine-based clients)
const BUSY_PRISMA_CODES = new Set(["P2024", "P2028"]);
// pg-pool, when no connection is free within connectionTimeoutMillis
const POOL_TIMEOUT_MESSAGE = "timeout exceeded when trying to connect";

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
}

/**
 * True for the errors that mean "the database is busy, try again shortly": a lock
 * or statement timeout, a transaction that could not start or ran out of time, a
 * pool with no free connection. As they surface through Prisma with the pg driver
 * adapter (P2010/P20xx with the SQLSTATE in meta.driverAdapterError) or from pg itself.
 */
export function isDatabaseBusyError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const { code, message, meta } = err as ErrorShape;
  if (typeof code === "string" && (BUSY_PRISMA_CODES.has(code) || BUSY_SQLSTATES.has(code))) return true;
  const cause = meta?.driverAdapterError?.cause;
  if (cause && BUSY_SQLSTATES.has(String(cause.originalCode ?? cause.code))) return true;
  return message === POOL_TIMEOUT_MESSAGE;
}
