import type { Express } from "express";

/** One method and path the app answers, with every handler that runs for it (mount middleware first). */
export interface MountedRoute {
  method: string;
  path: string;
  handlers: unknown[];
}

interface Layer {
  rawPath?: unknown;
  handle: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: Layer[] };
}

const joinPath = (prefix: string, path: string) => (path === "/" ? prefix || "/" : `${prefix}${path}`);

/**
 * Every route mounted on the app, found by walking Express's router stack
 * (routers mounted with app.use(path, ...middleware, router) included), so a
 * test can hold each route to a rule, e.g. that every POST honours Idempotency-Key.
 */
export function mountedRoutes(app: Express): MountedRoute[] {
  const routes: MountedRoute[] = [];
  const walk = (stack: Layer[], prefix: string, inherited: unknown[]) => {
    // middleware mounted on a path runs before the routes of a router mounted on the same path
    const mounted = new Map<string, unknown[]>();
    for (const layer of stack) {
      if (layer.route) {
        const path = joinPath(prefix, String(layer.route.path));
        for (const method of Object.keys(layer.route.methods)) {
          routes.push({ method: method.toUpperCase(), path, handlers: [...inherited, ...(mounted.get("/") ?? []), ...layer.route.stack.map((l) => l.handle)] });
        }
        continue;
      }
      const rawPath = typeof layer.rawPath === "string" ? layer.rawPath : "/";
      const nested = (layer.handle as { stack?: Layer[] }).stack;
      if (Array.isArray(nested)) {
        const before = rawPath === "/" ? (mounted.get("/") ?? []) : [...(mounted.get("/") ?? []), ...(mounted.get(rawPath) ?? [])];
        walk(nested, joinPath(prefix, rawPath) === "/" ? "" : joinPath(prefix, rawPath), [...inherited, ...before]);
      } else {
        mounted.set(rawPath, [...(mounted.get(rawPath) ?? []), layer.handle]);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "", []);
  return routes;
}
