import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, DEVELOPMENT_ENCRYPTION_KEY, loadConfig } from "../src/config.js";

test("defaults follow the operational contract", () => {
  const config = loadConfig("api", {});
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, "postgresql://postgres@127.0.0.1:5432/outreach");
  assert.equal(config.redisUrl, "redis://127.0.0.1:6379");
  assert.equal(config.queuePrefix, "outreach");
  assert.equal(config.publicBaseUrl, "http://localhost:3000");
  assert.equal(config.docsUrl, "http://localhost:3000/docs");
  assert.equal(config.trustProxy, 0);
  assert.equal(config.rateLimitPerMinute, 60);
  assert.equal(config.signupLimitPerHour, 5);
  assert.equal(config.imapPollIntervalSeconds, 60);
  assert.deepEqual(config.dnsServers, []);
  assert.equal(config.webhookAllowPrivateUrls, false);
  assert.equal(config.mailAllowPrivateHosts, false);
  assert.equal(config.mailRequireTls, true);
  assert.deepEqual(config.encryptionPreviousKeys, []);
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
  assert.equal(config.trustProxy, 1);
  assert.equal(config.webhookAllowPrivateUrls, true);
  assert.deepEqual(config.dnsServers, ["127.0.0.1:5353", "10.0.0.2"]);
  assert.equal(config.rateLimitPerMinute, 120);
});

test("DNSBL_ZONES: a comma-separated list of zones, zen.spamhaus.org when unset, none when set empty or to none", () => {
  assert.deepEqual(loadConfig("api", {}).dnsblZones, ["zen.spamhaus.org"]);
  assert.deepEqual(loadConfig("api", { DNSBL_ZONES: "zen.spamhaus.org, B.Barracudacentral.org." }).dnsblZones, ["zen.spamhaus.org", "b.barracudacentral.org"]);
  assert.deepEqual(loadConfig("api", { DNSBL_ZONES: "" }).dnsblZones, []);
  assert.deepEqual(loadConfig("api", { DNSBL_ZONES: "none" }).dnsblZones, []);
  assert.throws(() => loadConfig("api", { DNSBL_ZONES: "zen.spamhaus.org,not a zone" }), /DNSBL_ZONES/);
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
  assert.throws(
    () => loadConfig("api", { NODE_ENV: "production" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "ENCRYPTION_KEY",
  );
  const key = Buffer.alloc(32, 7).toString("base64");
  const config = loadConfig("api", { NODE_ENV: "production", ENCRYPTION_KEY: key });
  assert.deepEqual(config.encryptionKey, Buffer.alloc(32, 7));
  assert.equal(config.encryptionKeyIsDevelopment, false);
});

test("TRUST_PROXY: false/0/no trust no proxy, true is one hop, digits are hops, anything else a list of CIDRs", () => {
  for (const value of ["false", "0", "no", "off", "FALSE"]) assert.equal(loadConfig("api", { TRUST_PROXY: value }).trustProxy, 0, value);
  assert.equal(loadConfig("api", { TRUST_PROXY: "true" }).trustProxy, 1);
  assert.equal(loadConfig("api", { TRUST_PROXY: "yes" }).trustProxy, 1);
  assert.equal(loadConfig("api", { TRUST_PROXY: "3" }).trustProxy, 3);
  assert.deepEqual(loadConfig("api", { TRUST_PROXY: "10.0.0.0/8, 192.168.1.1" }).trustProxy, ["10.0.0.0/8", "192.168.1.1"]);
  assert.deepEqual(loadConfig("api", { TRUST_PROXY: "::1/128" }).trustProxy, ["::1/128"]);
  assert.deepEqual(loadConfig("api", { TRUST_PROXY: "fd00::/8,127.0.0.1/8" }).trustProxy, ["fd00::/8", "127.0.0.1/8"]);
});

for (const value of ["10.0.0.0/33", "abc", "10.0.0.0/8, nope", "::1/129", "10.0.0.0/", "1.2.3.4/8/8", "33", ","]) {
  test(`TRUST_PROXY ${JSON.stringify(value)} is refused naming TRUST_PROXY`, () => {
    assert.throws(
      () => loadConfig("api", { TRUST_PROXY: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === "TRUST_PROXY" && err.message.includes("TRUST_PROXY"),
    );
  });
}

test("MAIL_ALLOW_PRIVATE_HOSTS and MAIL_REQUIRE_TLS parse true and false", () => {
  const relaxed = loadConfig("api", { MAIL_ALLOW_PRIVATE_HOSTS: "true", MAIL_REQUIRE_TLS: "false" });
  assert.equal(relaxed.mailAllowPrivateHosts, true);
  assert.equal(relaxed.mailRequireTls, false);
  const strict = loadConfig("api", { MAIL_ALLOW_PRIVATE_HOSTS: "false", MAIL_REQUIRE_TLS: "true" });
  assert.equal(strict.mailAllowPrivateHosts, false);
  assert.equal(strict.mailRequireTls, true);
  for (const variable of ["MAIL_ALLOW_PRIVATE_HOSTS", "MAIL_REQUIRE_TLS"]) {
    assert.throws(
      () => loadConfig("api", { [variable]: "perhaps" }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable,
    );
  }
});

test("ENCRYPTION_PREVIOUS_KEYS is a comma-separated list of 32-byte base64 keys", () => {
  const one = Buffer.alloc(32, 1);
  const two = Buffer.alloc(32, 2);
  const config = loadConfig("api", { ENCRYPTION_PREVIOUS_KEYS: `${one.toString("base64")}, ${two.toString("base64")}` });
  assert.deepEqual(config.encryptionPreviousKeys, [one, two]);
});

test("a bad ENCRYPTION_PREVIOUS_KEYS entry is refused naming the variable without echoing it", () => {
  const good = Buffer.alloc(32, 1).toString("base64");
  const short = Buffer.from("secret-but-too-short").toString("base64");
  for (const bad of [short, "!!not-base64!!"]) {
    assert.throws(
      () => loadConfig("api", { ENCRYPTION_PREVIOUS_KEYS: `${good},${bad}` }),
      (err: unknown) =>
        err instanceof ConfigError && err.variable === "ENCRYPTION_PREVIOUS_KEYS" && err.message.includes("ENCRYPTION_PREVIOUS_KEYS") && !err.message.includes(bad) && !err.message.includes(good),
    );
  }
});

test("a bad DATABASE_URL is refused naming it without echoing the password in it", () => {
  assert.throws(
    () => loadConfig("api", { DATABASE_URL: "mysql://user:s3cretpw@host/db" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "DATABASE_URL" && err.message.includes("DATABASE_URL") && !err.message.includes("s3cretpw"),
  );
});

test("production refuses the published development ENCRYPTION_KEY", () => {
  assert.throws(
    () => loadConfig("api", { NODE_ENV: "production", ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY }),
    (err: unknown) => err instanceof ConfigError && err.variable === "ENCRYPTION_KEY" && /development key/.test(err.message),
  );
  // outside production the development key is allowed, and flagged
  assert.equal(loadConfig("api", { ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY }).encryptionKeyIsDevelopment, true);
});

test("SMTP_SESSIONS_PER_MAILBOX: 2 by default, 1 to 10 (within the account's 10 sessions)", () => {
  assert.equal(loadConfig("sender", {}).smtpSessionsPerMailbox, 2);
  assert.equal(loadConfig("sender", { SMTP_SESSIONS_PER_MAILBOX: "5" }).smtpSessionsPerMailbox, 5);
  for (const bad of ["0", "11", "two"]) assert.throws(() => loadConfig("sender", { SMTP_SESSIONS_PER_MAILBOX: bad }), ConfigError);
});

test("production refuses placeholder secrets for the features that are on, naming the variable and not echoing it", () => {
  const base = { NODE_ENV: "production", ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") };
  const refused = (env: Record<string, string>, variable: string) =>
    assert.throws(
      () => loadConfig("api", { ...base, ...env }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.includes(variable) && !/sk_live_x/.test(err.message),
      `${JSON.stringify(env)} is refused naming ${variable}`,
    );
  for (const placeholder of ["REPLACE_ME", "replace_me", "sk_REPLACE_ME_later", "changeme", "ChangeMe", "   "]) {
    refused({ STRIPE_SECRET_KEY: placeholder, STRIPE_WEBHOOK_SECRET: "whsec_real" }, "STRIPE_SECRET_KEY");
    refused({ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: placeholder }, "STRIPE_WEBHOOK_SECRET");
    refused({ RELAY_WEBHOOK_SECRET: placeholder }, "RELAY_WEBHOOK_SECRET");
  }
  // a payment provider needs its webhook secret too (an empty one counts as unset)
  refused({ STRIPE_SECRET_KEY: "sk_live_x" }, "STRIPE_WEBHOOK_SECRET");
  refused({ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "" }, "STRIPE_WEBHOOK_SECRET");
  // the shipped k8s Secret's placeholders, with a real key
  refused({ STRIPE_SECRET_KEY: "REPLACE_ME", STRIPE_WEBHOOK_SECRET: "REPLACE_ME", RELAY_WEBHOOK_SECRET: "REPLACE_ME" }, "STRIPE_SECRET_KEY");

  // features off (unset or empty) need no secret; real secrets pass
  assert.equal(loadConfig("api", { ...base, STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "", RELAY_WEBHOOK_SECRET: "" }).stripeSecretKey, undefined);
  const config = loadConfig("api", { ...base, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_real", RELAY_WEBHOOK_SECRET: "a-long-random-relay-secret" });
  assert.equal(config.relayWebhookSecret, "a-long-random-relay-secret");
  // outside production placeholders are tolerated (development, tests)
  assert.equal(loadConfig("api", { STRIPE_SECRET_KEY: "REPLACE_ME", RELAY_WEBHOOK_SECRET: "changeme" }).relayWebhookSecret, "changeme");
});

test("production refuses a database URL whose password is a placeholder, naming the variable and not echoing the URL", () => {
  const base = { NODE_ENV: "production", ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") };
  for (const variable of ["DATABASE_URL", "DATABASE_DIRECT_URL"]) {
    for (const url of ["postgresql://outreach:REPLACE_ME@outreach-pgbouncer:6432/outreach", "postgresql://outreach:changeme@db-host-x:5432/outreach"]) {
      assert.throws(
        () => loadConfig("api", { ...base, [variable]: url }),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && !err.message.includes("db-host-x") && !err.message.includes("outreach-pgbouncer"),
        `${variable}=${url} is refused`,
      );
    }
  }
  // a real password, or none (trust, certificates), passes; outside production the placeholder is tolerated
  assert.equal(loadConfig("api", { ...base, DATABASE_URL: "postgresql://outreach:s3cr3t-Pa55@db:5432/outreach" }).databaseUrl, "postgresql://outreach:s3cr3t-Pa55@db:5432/outreach");
  assert.equal(loadConfig("api", { ...base, DATABASE_URL: "postgresql://outreach@db:5432/outreach" }).databaseUrl, "postgresql://outreach@db:5432/outreach");
  assert.ok(loadConfig("api", { DATABASE_URL: "postgresql://outreach:REPLACE_ME@db:5432/outreach" }));
});
