/**
 * The URL of the page after this one: the `Link: <url>; rel="next"` target
 * (resolved against the page's own URL) while `X-Has-More: true`; undefined on
 * the last page. A next page on another origin is refused, so the API key is
 * never sent anywhere the caller did not point the client at.
 */
export function nextPageUrl(headers: Headers, pageUrl: string): string | undefined {
  if (headers.get("x-has-more") !== "true") return undefined;
  const target = nextLinkTarget(headers.get("link"));
  if (target === undefined) throw new Error(`the page of ${pageUrl} has X-Has-More: true but no Link rel="next"`);
  const next = new URL(target, pageUrl);
  if (next.origin !== new URL(pageUrl).origin) throw new Error(`refusing to follow a next page on another origin: ${next.origin}`);
  return next.href;
}

/** The target of the rel="next" entry of a Link header (RFC 8288). */
export function nextLinkTarget(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const [, target, params] of link.matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params ?? "")?.[1];
    if (rel?.toLowerCase().split(/\s+/).includes("next")) return target;
  }
  return undefined;
}
