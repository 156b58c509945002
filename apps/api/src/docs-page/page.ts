import { docsAsset } from "./assets.js";

/**
 * Everything the page loads comes from the API itself. Redoc needs inline styles
 * (styled-components and its bundled CSS add <style> elements) and runs its search index
 * in a worker made from a blob: URL; the document is fetched from 'self'.
 */
export const DOCS_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "worker-src blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const STYLE = `body{margin:0}
.docs-header{display:flex;gap:1.5rem;align-items:baseline;padding:.75rem 1.25rem;border-bottom:1px solid #e4e4e4;font:15px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
.docs-header strong{font-size:17px}
.docs-header a{color:#32329f}`;

/**
 * The reference page. `toRoot` leads from the page's URL to the API's root ("" at /docs,
 * "../" at /docs/): every URL in it is relative, so the page works wherever the API is
 * mounted (PUBLIC_BASE_URL may carry a path prefix that a proxy strips).
 */
export function docsPageHtml(toRoot: string): string {
  const asset = (name: string) => `${toRoot}docs/assets/${name}?v=${docsAsset(name)!.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header class="docs-header"><strong>API reference</strong><nav><a href="${toRoot}docs/errors">Error codes</a> · <a href="${toRoot}openapi.json">OpenAPI document</a></nav></header>
<noscript><p class="docs-header">This page needs JavaScript. The OpenAPI document itself is at <a href="${toRoot}openapi.json">openapi.json</a>.</p></noscript>
<div id="redoc" data-spec-url="${toRoot}openapi.json"></div>
<script src="${asset("redoc.standalone.js")}"></script>
<script src="${asset("docs-page.js")}"></script>
</body>
</html>
`;
}
