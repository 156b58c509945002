import { createServer, type Server } from "node:http";

export type ReadinessCheck = () => Promise<void>;

/** Times out a readiness probe so a hung dependency answers 503, not never. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runReadinessChecks(checks: Record<string, ReadinessCheck>, timeoutMs = 2_000): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const results: Record<string, string> = {};
  let ok = true;
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), timeoutMs, name);
        results[name] = "ok";
      } catch (err) {
        ok = false;
        results[name] = err instanceof Error ? err.message : String(err);
      }
    }),
  );
  return { ok, checks: results };
}

/** /healthz (alive) and /readyz (dependencies reachable) for a worker app. */
export function startHealthServer(port: number, checks: Record<string, ReadinessCheck>, isShuttingDown: () => boolean): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    res.setHeader("Content-Type", "application/json");
    if (req.method === "GET" && path === "/healthz") {
      res.end(JSON.stringify({ status: "ok" }));
      return;
    }
    if (req.method === "GET" && path === "/readyz") {
      const result = isShuttingDown() ? { ok: false, checks: { shutdown: "shutting down" } } : await runReadinessChecks(checks);
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
