import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { withLogContext } from "@outreach/core";

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives each request an id (the caller's X-Request-Id when sane), echoes it, and logs with it. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const id = incoming && VALID_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, "")}`;
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    withLogContext({ requestId: id }, () => next());
  };
}
