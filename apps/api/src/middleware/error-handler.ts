import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError, errorEnvelope, isAppError, type Logger } from "@outreach/core";
import { isDatabaseBusyError } from "@outreach/db";

/** Unknown routes: the envelope, never Express's HTML. */
export function notFound(): RequestHandler {
  return (req, _res, next) => next(new AppError("not_found", `No route for ${req.method} ${req.path}.`));
}

/**
 * 503 service_busy: the request met a lock or a statement timeout, or found no free
 * connection. Retry-After is 1 to 3 s, spread so that clients refused together do
 * not all come back in the same second.
 */
export function serviceBusyError(): AppError {
  return new AppError("service_busy", undefined, undefined, { "Retry-After": String(1 + Math.floor(Math.random() * 3)) });
}

/**
 * What any error thrown while serving a request is to its client (a response
 * here, an MCP tool's error result): an AppError as it is, a busy database
 * 503 service_busy, anything else 500 internal_error. 5xx details are logged
 * with the request id, never sent.
 */
export function appErrorOf(err: unknown, logger: Logger): AppError {
  let appError: AppError;
  if (isAppError(err)) {
    appError = err;
  } else if (err && typeof err === "object" && (err as { type?: string }).type === "entity.parse.failed") {
    appError = new AppError("bad_request", "The request body is not valid JSON.");
  } else if (isDatabaseBusyError(err)) {
    logger.warn("database busy", { error: err instanceof Error ? err.message.split("\n").filter(Boolean).at(-1) : String(err) });
    appError = serviceBusyError();
  } else {
    logger.error("unhandled error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    appError = new AppError("internal_error");
  }
  if (appError.status >= 500 && isAppError(err) && appError.code !== "service_busy") logger.error("server error", { code: appError.code, error: appError.message });
  return appError;
}

/** The one place errors become responses. A 401 names the scheme it wants (WWW-Authenticate: Bearer). */
export function errorHandler(docsUrl: string, logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const appError = appErrorOf(err, logger);
    if (res.headersSent) return;
    if (appError.code === "unauthorized") res.setHeader("WWW-Authenticate", "Bearer");
    for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
    res.status(appError.status).json(errorEnvelope(appError, docsUrl));
  };
}
