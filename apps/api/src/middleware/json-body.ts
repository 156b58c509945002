import express, { type RequestHandler } from "express";
import { AppError } from "@outreach/core";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/**
 * Parses JSON bodies and turns every way a body can be wrong (not JSON, wrong
 * content type, too large, bad charset) into a 400 bad_request envelope.
 */
export function jsonBody(limit: string): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if (METHODS_WITH_BODY.has(req.method) && hasBody && !req.is("application/json") && !req.is("application/*+json")) {
      next(new AppError("bad_request", "Request bodies must be JSON with Content-Type: application/json.", { content_type: req.get("content-type") ?? null }));
      return;
    }
    next();
  };
  const parse = express.json({ limit, strict: true, type: ["application/json", "application/*+json"] });
  const translate: RequestHandler = (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string; limit?: number; message?: string };
      if (e.type === "entity.too.large") return next(new AppError("bad_request", `The request body exceeds the limit of ${limit}.`, { limit }));
      if (e.type === "entity.parse.failed") return next(new AppError("bad_request", "The request body is not valid JSON."));
      if (e.type === "charset.unsupported" || e.type === "encoding.unsupported") return next(new AppError("bad_request", "Unsupported body encoding; send UTF-8 JSON."));
      return next(new AppError("bad_request", "The request body could not be read."));
    });
  return [requireJson, translate];
}
