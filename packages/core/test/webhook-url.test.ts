import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from "../src/webhook-url.js";

test("checkWebhookUrl accepts absolute public http(s) URLs and returns their normalised form", () => {
  assert.deepEqual(checkWebhookUrl("https://hooks.example.com/in?x=1", { allowPrivate: false }), { ok: true, url: "https://hooks.example.com/in?x=1", hostname: "hooks.example.com" });
  assert.deepEqual(checkWebhookUrl("http://Example.COM", { allowPrivate: false }), { ok: true, url: "http://example.com/", hostname: "example.com" });
  const v6 = checkWebhookUrl("https://[2606:4700:4700::1111]:8443/x", { allowPrivate: false });
  assert.equal(v6.ok, true);
});

test("checkWebhookUrl rejects what is not an absolute http(s) URL, credentials and overlong URLs", () => {
  const rejected: Array<[string, RegExp]> = [
    ["not a url", /absolute http or https URL/],
    ["/relative/path", /absolute http or https URL/],
    ["ftp://example.com/", /absolute http or https URL/],
    ["javascript:alert(1)", /absolute http or https URL/],
    ["file:///etc/passwd", /absolute http or https URL/],
    ["https://user:pass@example.com/", /user name or password/],
    ["https://user@example.com/", /user name or password/],
    [`https://example.com/${"a".repeat(WEBHOOK_URL_MAX_LENGTH)}`, /at most 2048/],
  ];
  for (const [url, reason] of rejected) {
    for (const allowPrivate of [false, true]) {
      const result = checkWebhookUrl(url, { allowPrivate });
      assert.equal(result.ok, false, url);
      if (!result.ok) assert.match(result.reason, reason, url);
    }
  }
});

test("checkWebhookUrl refuses internal targets in every spelling unless private URLs are allowed", () => {
  const internal = [
    "http://127.0.0.1/",
    "http://127.0.0.1./",
    "http://2130706433/", // 127.0.0.1 as one number
    "http://0x7f.1/", // 127.0.0.1 in hex shorthand
    "http://0/",
    "http://10.0.0.5:8080/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://192.168.1.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://localhost:3000/",
    "http://LocalHost./",
    "http://app.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://redis:6379/",
  ];
  for (const url of internal) {
    const refused = checkWebhookUrl(url, { allowPrivate: false });
    assert.equal(refused.ok, false, url);
    if (!refused.ok) assert.match(refused.reason, /public host/, url);
    assert.equal(checkWebhookUrl(url, { allowPrivate: true }).ok, true, `${url} with allowPrivate`);
  }
});
