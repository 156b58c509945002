// Redoc's default fonts (Roboto, Montserrat) would have to be fetched: use the reader's own.
const SYSTEM_FONTS = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MONOSPACE_FONTS = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

const REDOC_OPTIONS = {
  theme: { typography: { fontFamily: SYSTEM_FONTS, headings: { fontFamily: SYSTEM_FONTS }, code: { fontFamily: MONOSPACE_FONTS } } },
  expandResponses: "200,201",
  jsonSampleExpandLevel: 3,
  showWebhookVerb: true,
};

/**
 * The page's own script (GET /docs/assets/docs-page.js): renders the document named by the
 * container's data-spec-url (relative to the page) with Redoc. A file rather than an inline
 * script, so that the page's Content-Security-Policy allows scripts from 'self' only.
 */
export const PAGE_SCRIPT = `"use strict";
(function () {
  var container = document.getElementById("redoc");
  var specUrl = new URL(container.getAttribute("data-spec-url"), document.baseURI).href;
  Redoc.init(specUrl, ${JSON.stringify(REDOC_OPTIONS)}, container);
})();
`;
