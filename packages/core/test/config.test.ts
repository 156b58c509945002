import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

test("defaults follow the operational contract", () => {
  const config = loadConfig("api", {});
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, "postgresql://postgres@127.0.0.1:5432/outreach");
  assert.equal(config.redisUrl, "redis://127.0.0.1:6379");
  assert.equal(config.queuePrefix, "outreach");
  assert.equal(config.publicBaseUrl, "http://localhost:3000");
  assert.equal(config.docsUrl, "http://localhost:3000/docs");
  assert.equal(config.trustProxy, false);
  assert.equal(config.rateLimitPerMinute, 60);
  assert.equal(config.signupLimitPerHour, 5);
  assert.equal(config.imapPollIntervalSeconds, 60);
  assert.deepEqual(config.dnsServers, []);
  assert.equal(config.webhookAllowPrivateUrls, false);
  assert.equal(config.webhookTimeoutMs, 10_000);
  assert.equal(config.encryptionKey.length, 32);
  assert.equal(config.encryptionKeyIsDevelopment, true);
  assert.equal(config.stripeSecretKey, undefined);
  assert.equal(config.logLevel, "info");
});

test("each worker has its own default health port, HEALTH_PORT overrides it", () => {
  assert.equal(loadConfig("dispatcher", {}).healthPort, 3001);
  assert.equal(loadConfig("sender", {}).healthPort, 3002);
  assert.equal(loadConfig("imap-poller", {}).healthPort, 3003);
  assert.equal(loadConfig("webhook-deliverer", {}).healthPort, 3004);
  assert.equal(loadConfig("sender", { HEALTH_PORT: "4100" }).healthPort, 4100);
  assert.equal(loadConfig("api", { PORT: "4000" }).healthPort, 4000);
});

test("PUBLIC_BASE_URL follows PORT and DOCS_URL follows PUBLIC_BASE_URL; trailing slashes are dropped", () => {
  assert.equal(loadConfig("api", { PORT: "8080" }).publicBaseUrl, "http://localhost:8080");
  const config = loadConfig("api", { PUBLIC_BASE_URL: "https://out.example.com/" });
  assert.equal(config.publicBaseUrl, "https://out.example.com");
  assert.equal(config.docsUrl, "https://out.example.com/docs");
  assert.equal(loadConfig("api", { DOCS_URL: "https://docs.example.com/" }).docsUrl, "https://docs.example.com");
});

test("booleans, lists and numbers are parsed from strings", () => {
  const config = loadConfig("api", {
    TRUST_PROXY: "true",
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    DNS_SERVERS: "127.0.0.1:5353, 10.0.0.2",
    RATE_LIMIT_PER_MINUTE: "120",
  });
  assert.equal(config.trustProxy, true);
  assert.equal(config.webhookAllowPrivateUrls, true);
  assert.deepEqual(config.dnsServers, ["127.0.0.1:5353", "10.0.0.2"]);
  assert.equal(config.rateLimitPerMinute, 120);
});

test("empty variables count as unset", () => {
  assert.equal(loadConfig("api", { PORT: "", QUEUE_PREFIX: "" }).port, 3000);
});

const badValues: Array<[string, string]> = [
  ["PORT", "abc"],
  ["PORT", "70000"],
  ["DATABASE_URL", "mysql://x"],
  ["REDIS_URL", "not a url"],
  ["QUEUE_PREFIX", "has space"],
  ["TRUST_PROXY", "maybe"],
  ["RATE_LIMIT_PER_MINUTE", "0"],
  ["ENCRYPTION_KEY", Buffer.alloc(16).toString("base64")],
  ["LOG_LEVEL", "loud"],
  ["DNS_SERVERS", "1.2.3.4:53,bad host"],
  ["WEBHOOK_TIMEOUT_MS", "-5"],
];

for (const [variable, value] of badValues) {
  test(`a bad ${variable} (${JSON.stringify(value)}) is refused with a message naming it`, () => {
    assert.throws(
      () => loadConfig("api", { [variable]: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.includes(variable),
    );
  });
}

test("production refuses to run without ENCRYPTION_KEY", () => {
  assert.throws(() => loadConfig("api", { NODE_ENV: "production" }), (err: unknown) => err instanceof ConfigError && err.variable === "ENCRYPTION_KEY");
  const key = Buffer.alloc(32, 7).toString("base64");
  const config = loadConfig("api", { NODE_ENV: "production", ENCRYPTION_KEY: key });
  assert.deepEqual(config.encryptionKey, Buffer.alloc(32, 7));
  assert.equal(config.encryptionKeyIsDevelopment, false);
});
