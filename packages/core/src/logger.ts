import { AsyncLocalStorage } from "node:async_hooks";
import winston from "winston";

export type LogContext = Record<string, string | number | undefined>;

const contextStore = new AsyncLocalStorage<LogContext>();

/** Runs fn with fields (request id, job id, ...) added to every log line it writes. */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return contextStore.run({ ...contextStore.getStore(), ...fields }, fn);
}

export function currentLogContext(): LogContext {
  return contextStore.getStore() ?? {};
}

const addContext = winston.format((info) => {
  const context = contextStore.getStore();
  if (context) for (const [key, value] of Object.entries(context)) if (value !== undefined && info[key] === undefined) info[key] = value;
  return info;
});

export interface LoggerOptions {
  service: string;
  level?: string;
  json?: boolean;
}

export type Logger = winston.Logger;

export function createLogger({ service, level = "info", json }: LoggerOptions): Logger {
  const useJson = json ?? (process.env.NODE_ENV === "production" || process.env.LOG_FORMAT === "json");
  const format = useJson
    ? winston.format.combine(addContext(), winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json())
    : winston.format.combine(
        addContext(),
        winston.format.timestamp({ format: "HH:mm:ss.SSS" }),
        winston.format.errors({ stack: true }),
        winston.format.printf(({ timestamp, level: lvl, message, service: svc, stack, ...rest }) => {
          const fields = Object.entries(rest)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join(" ");
          return `${timestamp} ${lvl.padEnd(5)} [${svc}] ${message}${fields ? " " + fields : ""}${stack ? "\n" + stack : ""}`;
        }),
      );
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format,
    transports: [new winston.transports.Console({ stderrLevels: ["error", "warn"] })],
  });
}

/**
 * A caught failure as log fields: its message as `error`, and its stack when
 * it has one, so the line says where it came from (an `err.message` alone
 * does not). Pass these for every failure logged: `logger.warn("...", { id, ...errorFields(err) })`.
 */
export function errorFields(err: unknown): { error: string; stack?: string } {
  if (err instanceof Error) return err.stack ? { error: err.message, stack: err.stack } : { error: err.message };
  return { error: String(err) };
}

/**
 * For a failure the code can do without (a release whose lease expires by
 * itself, a close while shutting down): never thrown, never silent either. It
 * is logged at debug level with what failed and why it is safe to go on.
 * `.catch(ignoreFailure(logger, "releasing the inbox lease", "it expires by itself"))`
 */
export function ignoreFailure(logger: { debug?(message: string, meta?: Record<string, unknown>): unknown } | undefined, what: string, why: string): (err: unknown) => void {
  return (err) => {
    logger?.debug?.(`${what} failed; ignored: ${why}`, errorFields(err));
  };
}
