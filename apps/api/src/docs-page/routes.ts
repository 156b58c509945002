import { Router } from "express";
import { AppError } from "@outreach/core";
import { docsAsset } from "./assets.js";
import { DOCS_PAGE_CSP, docsPageHtml } from "./page.js";

/** GET /docs, the API reference rendered from GET /openapi.json, and the assets it loads. */
export function docsPageRoutes(): Router {
  const router = Router();

  router.get("/docs", (req, res) => {
    res.setHeader("Content-Security-Policy", DOCS_PAGE_CSP);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cache-Control", "public, max-age=300");
    res.type("html").send(docsPageHtml(req.path.endsWith("/") ? "../" : ""));
  });

  router.get("/docs/assets/:name", (req, res) => {
    const asset = docsAsset(req.params.name);
    if (!asset) throw new AppError("not_found", "No such asset.");
    // The page names each asset with its digest (?v=), so that URL never changes its body.
    const cacheControl = req.query.v === asset.version ? "public, max-age=31536000, immutable" : "public, max-age=300";
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Type", asset.contentType);
    res.send(asset.body);
  });

  return router;
}
