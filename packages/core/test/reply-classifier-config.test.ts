import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

const URL_ = "http://127.0.0.1:9999/v1/chat/completions";

test("without REPLY_CLASSIFIER_URL replies are categorized by the rules only, whatever else is set", () => {
  assert.equal(loadConfig("imap-poller", {}).replyClassifier, undefined);
  assert.equal(loadConfig("imap-poller", { REPLY_CLASSIFIER_API_KEY: "sk-x", REPLY_CLASSIFIER_MODEL: "m" }).replyClassifier, undefined);
  assert.equal(loadConfig("imap-poller", { REPLY_CLASSIFIER_URL: "", REPLY_CLASSIFIER_API_KEY: "sk-x" }).replyClassifier, undefined, "empty counts as unset");
});

test("with the URL and its key: the model, timeout and daily budget, with their defaults", () => {
  assert.deepEqual(loadConfig("imap-poller", { REPLY_CLASSIFIER_URL: URL_, REPLY_CLASSIFIER_API_KEY: "sk-x" }).replyClassifier, {
    url: URL_,
    apiKey: "sk-x",
    model: "gpt-4o-mini",
    timeoutMs: 10_000,
    dailyBudget: 500,
  });
  const config = loadConfig("imap-poller", {
    REPLY_CLASSIFIER_URL: URL_,
    REPLY_CLASSIFIER_API_KEY: "sk-x",
    REPLY_CLASSIFIER_MODEL: "local-model",
    REPLY_CLASSIFIER_TIMEOUT_MS: "2500",
    REPLY_CLASSIFIER_DAILY_BUDGET: "0",
  });
  assert.deepEqual(config.replyClassifier, { url: URL_, apiKey: "sk-x", model: "local-model", timeoutMs: 2500, dailyBudget: 0 });
});

test("a URL without its key is refused with a message naming REPLY_CLASSIFIER_API_KEY", () => {
  assert.throws(
    () => loadConfig("imap-poller", { REPLY_CLASSIFIER_URL: URL_ }),
    (err: unknown) => err instanceof ConfigError && err.variable === "REPLY_CLASSIFIER_API_KEY" && /required when REPLY_CLASSIFIER_URL is set/.test(err.message),
  );
  assert.throws(
    () => loadConfig("imap-poller", { REPLY_CLASSIFIER_URL: URL_, REPLY_CLASSIFIER_API_KEY: "" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "REPLY_CLASSIFIER_API_KEY",
  );
});

for (const [variable, value] of [
  ["REPLY_CLASSIFIER_URL", "ftp://models.example/v1"],
  ["REPLY_CLASSIFIER_URL", "not a url"],
  ["REPLY_CLASSIFIER_TIMEOUT_MS", "0"],
  ["REPLY_CLASSIFIER_TIMEOUT_MS", "soon"],
  ["REPLY_CLASSIFIER_DAILY_BUDGET", "-1"],
  ["REPLY_CLASSIFIER_DAILY_BUDGET", "1.5"],
] as const) {
  test(`a bad ${variable} (${JSON.stringify(value)}) is refused naming it`, () => {
    assert.throws(
      () => loadConfig("imap-poller", { REPLY_CLASSIFIER_URL: URL_, REPLY_CLASSIFIER_API_KEY: "sk-x", [variable]: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.includes(variable),
    );
  });
}

test("production refuses a placeholder key", () => {
  const production = { NODE_ENV: "production", ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"), REPLY_CLASSIFIER_URL: URL_ };
  assert.throws(
    () => loadConfig("imap-poller", { ...production, REPLY_CLASSIFIER_API_KEY: "REPLACE_ME" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "REPLY_CLASSIFIER_API_KEY",
  );
  assert.equal(loadConfig("imap-poller", { ...production, REPLY_CLASSIFIER_API_KEY: "sk-real-key" }).replyClassifier?.apiKey, "sk-real-key");
});
