import express, { type RequestHandler } from "express";
import { AppError } from "@outreach/core";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/** Refuses a body that is not JSON (a route that streams its body uses this alone). */
export const requireJson: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
  if (METHODS_WITH_BODY.has(req.method) && hasBody && !req.is("application/json") && !req.is("application/*+json")) {
    next(new AppError("bad_request", "Request bodies must be JSON with Content-Type: application/json.", { content_type: req.get("content-type") ?? null }));
    return;
  }
  next();
};

/** The envelope for a body that could not be read, by the error type body-parser (or a streaming reader) gives. */
export function bodyError(type: string | undefined, limit: string): AppError {
  if (type === "entity.too.large") return new AppError("bad_request", `The request body exceeds the limit of ${limit}.`, { limit });
  if (type === "entity.parse.failed") return new AppError("bad_request", "The request body is not valid JSON.");
  if (type === "charset.unsupported" || type === "encoding.unsupported") return new AppError("bad_request", "Unsupported body encoding; send UTF-8 JSON.");
  return new AppError("bad_request", "The request body could not be read.");
}

/**
 * Parses JSON bodies and turns every way a body can be wrong (not JSON, wrong
 * content type, too large, bad charset) into a 400 bad_request envelope.
 */
export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: ["application/json", "application/*+json"] });
  const translate: RequestHandler = (req, res, next) => {
    // no route reads a GET or HEAD body: skip the parser on the most frequent requests
    if (req.method === "GET" || req.method === "HEAD") return next();
    parse(req, res, (err?: unknown) => (err ? next(bodyError((err as { type?: string }).type, limit)) : next()));
  };
  return [requireJson, translate];
}
