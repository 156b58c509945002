import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError, errorEnvelope, isAppError, type Logger } from "@outreach/core";

/** Unknown routes: the envelope, never Express's HTML. */
export function notFound(): RequestHandler {
  return (req, _res, next) => next(new AppError("not_found", `No route for ${req.method} ${req.path}.`));
}

/** The one place errors become responses. 5xx details are logged with the request id, never sent. */
export function errorHandler(docsUrl: string, logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    let appError: AppError;
    if (isAppError(err)) {
      appError = err;
    } else if (err && typeof err === "object" && (err as { type?: string }).type === "entity.parse.failed") {
      appError = new AppError("bad_request", "The request body is not valid JSON.");
    } else {
      logger.error("unhandled error", { error: err instanceof Error ? err.stack ?? err.message : String(err) });
      appError = new AppError("internal_error");
    }
    if (appError.status >= 500 && isAppError(err)) logger.error("server error", { code: appError.code, error: appError.message });
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
    res.status(appError.status).json(errorEnvelope(appError, docsUrl));
  };
}
