import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const BUNDLE = "redoc/bundles/redoc.standalone.js";

// The one thing the bundle loads from outside: the logo beside "API docs by Redocly" in the side
// menu. An image that fails to load is left out by Redoc, so "data:," keeps the page to our origin.
const OUTSIDE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

/**
 * Redoc's self-contained browser bundle, as served at /docs/assets/redoc.standalone.js. Resolved
 * from this module's location, which is apps/api/src in development and apps/api/dist in the built
 * app (apps/api/node_modules beside both, in the workspace and in the image).
 */
export function readRedocBundle(): string {
  const path = createRequire(import.meta.url).resolve(BUNDLE);
  const source = readFileSync(path, "utf8").replaceAll(OUTSIDE_LOGO, "data:,");
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
}
