import type { RequestListener } from "node:http";
import express, { type RequestHandler } from "express";
import { AppError, type Config, type Logger, errorFields, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { errorHandler, notFound } from "../middleware/error-handler.js";
import { operatorAuth } from "./operator-auth.js";
import { bullBoardUiPath, QUEUE_BOARD_PATH, QueueBoard } from "./queue-board.js";
import { scheduleRoutes } from "./schedule-route.js";

export interface AdminApp {
  /** handles every request of the metrics listener but GET /metrics */
  listener: RequestListener;
  /** null when bull-board's UI files are missing (the schedule view still works) */
  board: QueueBoard | null;
  close(): Promise<void>;
}

export interface AdminDeps {
  config: Pick<Config, "operatorToken" | "queuePrefix" | "docsUrl">;
  logger: Logger;
  db: Db;
  /** plain commands and the boards' queue producers (the api's producer connection) */
  redis: RedisClient;
}

/**
 * Scripts and styles from this origin only: bull-board's page would load web
 * fonts from a third party, which the operator's browser never needs to reach.
 */
const BOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/**
 * The operator views on the api's metrics listener (never the public port),
 * behind OPERATOR_TOKEN: bull-board under /admin/queues (read-only) and the
 * schedule under /admin/schedule. null when OPERATOR_TOKEN is unset: the
 * listener then answers /metrics alone (404 for everything else).
 */
export function createAdminApp(deps: AdminDeps): AdminApp | null {
  const token = deps.config.operatorToken;
  if (!token) return null;
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "simple");

  // who looked, and at what (never the token: the query string is left out)
  app.use((req, res, next) => {
    const path = req.path;
    res.once("finish", () => deps.logger.info("operator view", { method: req.method, path, status: res.statusCode }));
    next();
  });
  // a browser showing the board asks the origin for its icon: none, rather than a 404 in its console
  app.get("/favicon.ico", (_req, res) => {
    res.status(204).end();
  });
  app.use("/admin", operatorAuth(token), (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    next();
  });
  app.use("/admin", scheduleRoutes(deps.db, deps.redis, deps.config));

  let board: QueueBoard | null = null;
  try {
    board = new QueueBoard(deps.redis, deps.config, deps.logger, bullBoardUiPath());
    const csp: RequestHandler = (_req, res, next) => {
      res.setHeader("Content-Security-Policy", BOARD_CSP);
      next();
    };
    app.use(QUEUE_BOARD_PATH, csp, ...board.router);
  } catch (err) {
    deps.logger.warn("bull-board's UI files are not installed: /admin/queues is unavailable", { ...errorFields(err) });
    app.use(QUEUE_BOARD_PATH, () => {
      throw new AppError("service_unavailable", "The queue board's files (@bull-board/ui) are not installed with this api.");
    });
  }

  app.use(notFound());
  app.use(errorHandler(deps.config.docsUrl, deps.logger));
  return {
    listener: app,
    board,
    close: async () => board?.close(),
  };
}
