// The database could not be reached or dropped the connection: the failure is ours, not the
// statement's. Prisma's codes (P1001 can't reach, P1002 timed out reaching, P1008 operation
// timed out, P1017 server closed the connection), the pg driver adapter's kinds, SQLSTATE
// class 08 (connection exception) and 57P01-57P03 (shut down, crashed, not accepting yet),
// 53300 (too many connections), the socket's errno, and pg's own messages.
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
const UNAVAILABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TlsConnectionError", "TooManyConnections"]);
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Can't reach database server",
];

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; code?: unknown } } };
}

function isUnavailableCode(code: unknown): boolean {
  if (typeof code !== "string") return false;
  return UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/**
 * True when the database was unreachable or went away under the statement
 * (as the error surfaces from Prisma with the pg driver adapter, or from pg
 * itself, its causes followed): a failure of ours, to be retried, never one
 * to blame on the data being written.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as ErrorShape).cause, depth++) {
    const { code, message, meta } = e as ErrorShape;
    if (isUnavailableCode(code)) return true;
    const cause = meta?.driverAdapterError?.cause;
    if (cause && (UNAVAILABLE_ADAPTER_KINDS.has(String(cause.kind)) || isUnavailableCode(cause.originalCode ?? cause.code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
  }
  return false;
}
