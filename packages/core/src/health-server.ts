import { errorFields } from "./logger.js";
import { createServer, type RequestListener, type Server } from "node:http";
import { withTimeout } from "./deadline.js";
import type { Logger } from "./logger.js";
import type { AppMetrics } from "./metrics.js";

export type ReadinessCheck = () => Promise<void>;

export type ReadinessState = "ok" | "unavailable";

export interface ReadinessOptions {
  timeoutMs?: number;
  /** gets each failure's detail, which the public answer leaves out */
  logger?: Logger;
}

/**
 * Runs every check. The answer says only "ok" or "unavailable" per check: the
 * probe is public, and an error's text can name hosts or connection strings.
 */
export async function runReadinessChecks(
  checks: Record<string, ReadinessCheck>,
  { timeoutMs = 2_000, logger }: ReadinessOptions = {},
): Promise<{ ok: boolean; checks: Record<string, ReadinessState> }> {
  const results: Record<string, ReadinessState> = {};
  let ok = true;
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), timeoutMs, name);
        results[name] = "ok";
      } catch (err) {
        ok = false;
        results[name] = "unavailable";
        logger?.warn("readiness check failed", { check: name, ...errorFields(err) });
      }
    }),
  );
  return { ok, checks: results };
}

/** Answers GET /metrics with the app's series in Prometheus's text format. */
export async function serveMetrics(metrics: AppMetrics, res: import("node:http").ServerResponse, logger?: Logger): Promise<void> {
  try {
    const text = await metrics.render((err) => logger?.warn("could not read the database gauges; /metrics answers without them", { ...errorFields(err), stack: err.stack }));
    res.setHeader("Content-Type", metrics.contentType);
    res.end(text);
  } catch (err) {
    logger?.error("could not collect metrics", { ...errorFields(err) });
    res.statusCode = 500;
    res.setHeader("Content-Type", "text/plain");
    res.end("metrics could not be collected\n");
  }
}

/** /healthz (alive), /readyz (dependencies reachable) and /metrics (Prometheus) for a worker app. */
export function startHealthServer(port: number, checks: Record<string, ReadinessCheck>, isShuttingDown: () => boolean, logger?: Logger, metrics?: AppMetrics): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/metrics" && metrics) {
      await serveMetrics(metrics, res, logger);
      return;
    }
    res.setHeader("Content-Type", "application/json");
    if (req.method === "GET" && path === "/healthz") {
      res.end(JSON.stringify({ status: "ok" }));
      return;
    }
    if (req.method === "GET" && path === "/readyz") {
      const result = isShuttingDown() ? { ok: false, checks: { shutdown: "shutting down" } } : await runReadinessChecks(checks, { logger });
      res.statusCode = result.ok ? 200 : 503;
      res.end(JSON.stringify({ status: result.ok ? "ok" : "unavailable", checks: result.checks }));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ code: "not_found", message: "Not found." }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve(server));
  });
}

/**
 * The api's metrics listener, on its own port (METRICS_PORT), so the public
 * port never shows it: GET /metrics (no authentication, as before), and every
 * other request to `others` when given (the operator views, which check their
 * own token), else 404.
 */
export function startMetricsServer(port: number, metrics: AppMetrics, logger?: Logger, host?: string, others?: RequestListener): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/metrics") return serveMetrics(metrics, res, logger);
    if (others) return others(req, res);
    res.statusCode = 404;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ code: "not_found", message: "Not found." }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
