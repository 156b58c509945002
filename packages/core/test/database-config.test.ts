import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

test("connection settings: production defaults, and DATABASE_DIRECT_URL defaults to DATABASE_URL", () => {
  const config = loadConfig("sender", { DATABASE_URL: "postgresql://app@db:6432/outreach" });
  assert.deepEqual(config.database, { poolSize: 10, statementTimeoutMs: 30_000, lockTimeoutMs: 5_000, idleInTransactionTimeoutMs: 60_000, transactionPooling: false });
  assert.equal(config.databaseDirectUrl, "postgresql://app@db:6432/outreach");
  assert.equal(config.trackingRateLimitPerMinute, 600);
});

test("connection settings come from the environment; 0 turns a timeout off", () => {
  const config = loadConfig("api", {
    DATABASE_URL: "postgresql://app@pgbouncer:6432/outreach",
    DATABASE_DIRECT_URL: "postgresql://app@postgres:5432/outreach",
    DATABASE_POOL_SIZE: "25",
    DATABASE_STATEMENT_TIMEOUT_MS: "0",
    DATABASE_LOCK_TIMEOUT_MS: "250",
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "15000",
    DATABASE_TRANSACTION_POOLING: "true",
    TRACKING_RATE_LIMIT_PER_MINUTE: "120",
  });
  assert.deepEqual(config.database, { poolSize: 25, statementTimeoutMs: 0, lockTimeoutMs: 250, idleInTransactionTimeoutMs: 15_000, transactionPooling: true });
  assert.equal(config.databaseDirectUrl, "postgresql://app@postgres:5432/outreach");
  assert.equal(config.trackingRateLimitPerMinute, 120);
});

test("bad connection settings name the variable; a bad DATABASE_DIRECT_URL is not echoed", () => {
  for (const [name, value] of [
    ["DATABASE_POOL_SIZE", "0"],
    ["DATABASE_POOL_SIZE", "ten"],
    ["DATABASE_STATEMENT_TIMEOUT_MS", "-1"],
    ["DATABASE_LOCK_TIMEOUT_MS", "1.5"],
    ["DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", "soon"],
    ["DATABASE_TRANSACTION_POOLING", "maybe"],
    ["TRACKING_RATE_LIMIT_PER_MINUTE", "0"],
  ]) {
    assert.throws(
      () => loadConfig("api", { [name!]: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === name,
      `${name}=${value}`,
    );
  }
  assert.throws(
    () => loadConfig("api", { DATABASE_DIRECT_URL: "mysql://root:hunter2@db/outreach" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "DATABASE_DIRECT_URL" && !err.message.includes("hunter2"),
  );
});
