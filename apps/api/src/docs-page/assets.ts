import { createHash } from "node:crypto";
import { PAGE_SCRIPT } from "./page-script.js";
import { readRedocBundle } from "./redoc-bundle.js";

export interface DocsAsset {
  body: Buffer;
  contentType: string;
  /** a digest of the body: the page asks for `<name>?v=<version>`, which may be cached for good */
  version: string;
}

const SOURCES: Record<string, { contentType: string; read: () => string }> = {
  "redoc.standalone.js": { contentType: "text/javascript; charset=utf-8", read: readRedocBundle },
  "docs-page.js": { contentType: "text/javascript; charset=utf-8", read: () => PAGE_SCRIPT },
};

export const DOCS_ASSET_NAMES = Object.keys(SOURCES);

const loaded = new Map<string, DocsAsset>();

/** The asset served at /docs/assets/<name>, read on first use and kept in memory; undefined when there is none. */
export function docsAsset(name: string): DocsAsset | undefined {
  if (!Object.hasOwn(SOURCES, name)) return undefined;
  let asset = loaded.get(name);
  if (!asset) {
    const source = SOURCES[name]!;
    const body = Buffer.from(source.read(), "utf8");
    asset = { body, contentType: source.contentType, version: createHash("sha256").update(body).digest("hex").slice(0, 16) };
    loaded.set(name, asset);
  }
  return asset;
}
