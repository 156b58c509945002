import type { Express } from "express";
import { match, type MatchFunction } from "path-to-regexp";
import { mountedRoutes } from "./route-list.js";

/** How many paths' patterns are remembered (paths carry ids, so the set is forgotten when full), of paths up to what length (memory stays under a few MB). */
const RECENT_PATHS = 10_000;
const RECENT_PATH_LENGTH = 200;

/**
 * The route pattern a request path belongs to (/campaigns/:id), found by
 * matching it against every route the app mounts: what usage and metrics are
 * grouped by, never the raw path with its ids. Read from the path alone, so
 * an answer given anywhere (an error handler, an authentication failure) has
 * its pattern. A path no route has is "unmatched" (one label for every 404).
 */
export class RoutePatterns {
  private matchers: Array<{ pattern: string; matches: MatchFunction<object> }> | undefined;
  /** the patterns of paths seen lately: most requests repeat a path (a list, a resource polled) */
  private readonly recent = new Map<string, string>();

  constructor(private readonly app: Express) {}

  of(path: string): string {
    const known = this.recent.get(path);
    if (known !== undefined) return known;
    const pattern = this.find(path);
    if (path.length > RECENT_PATH_LENGTH) return pattern;
    if (this.recent.size >= RECENT_PATHS) this.recent.clear();
    this.recent.set(path, pattern);
    return pattern;
  }

  private find(path: string): string {
    // built on the first request: by then every route is mounted
    this.matchers ??= [...new Set(mountedRoutes(this.app).map((route) => route.path))].map((pattern) => ({ pattern, matches: match(pattern, { decode: false }) }));
    for (const { pattern, matches } of this.matchers) if (matches(path)) return pattern;
    return "unmatched";
  }
}
