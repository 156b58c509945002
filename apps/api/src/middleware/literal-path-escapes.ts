import type { RequestHandler } from "express";

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path segment that is not valid %-encoding (a lone "%", "%zz", bytes that
 * are not UTF-8) is taken literally, its "%" escaped, before the routers
 * decode it: a route then sees it as text and answers as for any other value
 * that names nothing (the resource's 404), where the router's decoding error
 * would have been a 500.
 */
export function literalPathEscapes(): RequestHandler {
  return (req, _res, next) => {
    const queryAt = req.url.indexOf("?");
    const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    if (path.includes("%")) {
      const literal = path
        .split("/")
        .map((segment) => (decodes(segment) ? segment : segment.replace(/%/g, "%25")))
        .join("/");
      if (literal !== path) req.url = literal + (queryAt === -1 ? "" : req.url.slice(queryAt));
    }
    next();
  };
}
