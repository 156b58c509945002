import express, { type RequestHandler } from "express";
import { AppError } from "@outreach/core";

/**
 * Reads the body as raw bytes (any content type; `req.body` is a Buffer, or
 * undefined without a body), for signed provider callbacks whose signature
 * covers the exact bytes sent. Too large or encoded bodies are 400 bad_request.
 */
export function rawBody(limit: string): RequestHandler {
  // no inflation: the signature covers the bytes as they arrive
  const parse = express.raw({ limit, type: () => true, inflate: false });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string };
      if (e.type === "entity.too.large") return next(new AppError("bad_request", `The request body exceeds the limit of ${limit}.`, { limit }));
      if (e.type === "encoding.unsupported") return next(new AppError("bad_request", "Compressed request bodies are not accepted."));
      return next(new AppError("bad_request", "The request body could not be read."));
    });
}
