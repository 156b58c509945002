import type { NextFunction, Request, RequestHandler, Response } from "express";

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function";
}

/**
 * Middleware run one after another as a single one, with Express's own rules
 * (a throw or a rejected promise goes to the error handler, next(err) skips
 * the rest): the router then walks one layer where it walked several, which
 * it does for every request under the prefix the chain guards.
 */
export function inSequence(handlers: RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0]!;
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const fail = (err: unknown) => done(err ?? new Error("Rejected promise"));
    const next = (err?: unknown) => {
      if (err !== undefined && err !== null) return done(err);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        const result = handler(req, res, next) as unknown;
        if (isThenable(result)) result.then(undefined, fail);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };
}
