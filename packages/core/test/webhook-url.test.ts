import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWebhookUrl, isPrivateAddress, isPrivateHostname, WEBHOOK_URL_MAX_LENGTH } from "../src/webhook-url.js";

test("IPv4 private, loopback, link-local, CGNAT, unspecified, multicast and reserved ranges are private", () => {
  const cases: Array<[string, string]> = [
    ["0.0.0.0", "unspecified"],
    ["0.255.255.255", "0/8"],
    ["10.0.0.1", "10/8"],
    ["10.255.255.255", "10/8 top"],
    ["100.64.0.1", "100.64/10"],
    ["100.127.255.255", "100.64/10 top"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "127/8 top"],
    ["169.254.169.254", "link-local (metadata)"],
    ["172.16.0.1", "172.16/12"],
    ["172.31.255.255", "172.16/12 top"],
    ["192.168.0.1", "192.168/16"],
    ["192.168.255.255", "192.168/16 top"],
    ["192.0.0.8", "IETF assignments"],
    ["192.0.2.1", "TEST-NET-1"],
    ["198.18.0.1", "benchmarking"],
    ["198.51.100.7", "TEST-NET-2"],
    ["203.0.113.9", "TEST-NET-3"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast top"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
  ];
  for (const [ip, why] of cases) assert.equal(isPrivateAddress(ip), true, `${ip} (${why})`);
});

test("public IPv4 addresses, including the neighbours of private ranges, are allowed", () => {
  for (const ip of ["1.1.1.1", "8.8.8.8", "93.184.216.34", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.1", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("IPv6 loopback, unspecified, unique-local, link-local, site-local, multicast and documentation are private", () => {
  const cases = ["::1", "::", "0:0:0:0:0:0:0:1", "fc00::1", "fd12:3456:789a::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::1", "febf::1", "fec0::1", "ff02::1", "ff0e::101", "100::1", "2001:db8::1", "3fff::1", "64:ff9b:1::1"];
  for (const ip of cases) assert.equal(isPrivateAddress(ip), true, ip);
});

test("IPv6 forms that embed a private IPv4 address are private; with a public one they are allowed", () => {
  for (const ip of ["::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:10.1.2.3", "::ffff:169.254.169.254", "::ffff:0:192.168.1.1", "::127.0.0.1", "64:ff9b::10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:c0a8:101::"]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ["::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::1.1.1.1", "2002:808:808::1"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("public IPv6 addresses are allowed", () => {
  for (const ip of ["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:82b::200e", "2001:db9::1", "2400:cb00::1"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("brackets and zone ids are accepted; anything that is not an address fails closed", () => {
  assert.equal(isPrivateAddress("[::1]"), true);
  assert.equal(isPrivateAddress("fe80::1%eth0"), true);
  assert.equal(isPrivateAddress("[2606:4700:4700::1111]"), false);
  for (const junk of ["", "localhost", "example.com", "1.2.3", "256.1.1.1", "01.2.3.4", "1::2::3", "::ffff:1.2.3.999"]) {
    assert.equal(isPrivateAddress(junk), true, JSON.stringify(junk));
  }
});

test("private host names: localhost, *.localhost, *.local, *.internal, single labels; public names pass", () => {
  for (const name of ["localhost", "LOCALHOST", "localhost.", "api.localhost", "printer.local", "metadata.google.internal", "db.localdomain", "nas.home.arpa", "redis", "host.docker.internal", ""]) {
    assert.equal(isPrivateHostname(name), true, JSON.stringify(name));
  }
  for (const name of ["example.com", "hooks.example.com.", "localhost.example.com", "internal.example.com", "local.dev"]) {
    assert.equal(isPrivateHostname(name), false, name);
  }
});

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
