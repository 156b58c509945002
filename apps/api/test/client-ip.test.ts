import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { clientIpBucket, normalizeIp } from "../src/client-ip.js";
import { request, startTestApi, type TestApi } from "./helpers.js";

// The client IP is observed through the signup limit: SIGNUP_LIMIT_PER_HOUR=2
// per client IP, so the third signup counted as the same IP gets a 429.
// Test connections come from 127.0.0.1.

let emails = 0;

async function signupStatus(api: TestApi, forwardedFor?: string): Promise<number> {
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor };
  const res = await request(api.baseUrl, "POST", "/signup", { body: { email: `ip-${++emails}@example.com` }, headers });
  assert.ok(res.status === 201 || (res.status === 429 && res.body.code === "rate_limited"), `${res.status} ${res.text}`);
  return res.status;
}

/** Spends the two signups of whoever `first` and `second` count as. */
async function spend(api: TestApi, first: string | undefined, second: string | undefined): Promise<void> {
  assert.equal(await signupStatus(api, first), 201, `first signup as ${first}`);
  assert.equal(await signupStatus(api, second), 201, `second signup as ${second}`);
}

function withApi(env: Record<string, string>, body: (get: () => TestApi) => void): void {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "2", ...env });
  });
  after(() => api?.close());
  body(() => api);
}

describe("TRUST_PROXY unset (false): X-Forwarded-For is ignored", () => {
  withApi({}, (api) => {
    test("a forged header shares the budget of the socket's address", async () => {
      await spend(api(), undefined, "203.0.113.1");
      assert.equal(await signupStatus(api(), "198.51.100.2"), 429);
      assert.equal(await signupStatus(api(), "198.51.100.3, 203.0.113.4"), 429);
      assert.equal(await signupStatus(api()), 429);
    });
  });
});

function oneHopScenario(api: () => TestApi): void {
  test("X-Forwarded-For: a, b counts as b, the address the proxy saw", async () => {
    await spend(api(), "192.0.2.1, 203.0.113.5", "192.0.2.2, 203.0.113.5");
    // a different a with the same b shares b's budget
    assert.equal(await signupStatus(api(), "192.0.2.3, 203.0.113.5"), 429);
    assert.equal(await signupStatus(api(), "203.0.113.5"), 429);
    // a different b has its own budget
    assert.equal(await signupStatus(api(), "192.0.2.1, 203.0.113.6"), 201);
    // without the header the client is the proxy itself
    await spend(api(), undefined, undefined);
    assert.equal(await signupStatus(api()), 429);
  });

  test("IPv6 clients in one /64 share one budget; another /64 has its own", async () => {
    await spend(api(), "2001:db8:1:2::1", "2001:DB8:1:2:ffff::9");
    assert.equal(await signupStatus(api(), "2001:db8:1:2:abcd:1:2:3"), 429);
    assert.equal(await signupStatus(api(), "2001:0db8:0001:0002:0000:0000:0000:0001"), 429);
    assert.equal(await signupStatus(api(), "2001:db8:1:3::1"), 201);
    assert.equal(await signupStatus(api(), "2001:db8:2:2::1"), 201);
  });

  test("an IPv4-mapped IPv6 address counts as the IPv4 address", async () => {
    await spend(api(), "::ffff:203.0.113.77", "203.0.113.77");
    assert.equal(await signupStatus(api(), "::ffff:cb00:714d"), 429);
    // IPv4 clients are limited per address, not per network
    assert.equal(await signupStatus(api(), "203.0.113.78"), 201);
  });
}

describe("TRUST_PROXY=1: only the nearest hop is believed", () => {
  withApi({ TRUST_PROXY: "1" }, oneHopScenario);
});

describe("TRUST_PROXY=true means one hop", () => {
  withApi({ TRUST_PROXY: "true" }, oneHopScenario);
});

describe("TRUST_PROXY=2: two hops are believed", () => {
  withApi({ TRUST_PROXY: "2" }, (api) => {
    test("X-Forwarded-For: a, b counts as a", async () => {
      await spend(api(), "198.51.100.1, 203.0.113.5", "198.51.100.1, 203.0.113.6");
      assert.equal(await signupStatus(api(), "192.0.2.9, 198.51.100.1, 10.0.0.7"), 429);
      assert.equal(await signupStatus(api(), "198.51.100.2, 203.0.113.5"), 201);
    });
  });
});

describe("TRUST_PROXY as a CIDR list that includes the proxy", () => {
  withApi({ TRUST_PROXY: "127.0.0.1/8" }, (api) => {
    test("the loopback proxy is trusted: X-Forwarded-For: a, b counts as b", async () => {
      await spend(api(), "192.0.2.1, 203.0.113.5", "192.0.2.2, 203.0.113.5");
      assert.equal(await signupStatus(api(), "192.0.2.3, 203.0.113.5"), 429);
      assert.equal(await signupStatus(api(), "192.0.2.1, 203.0.113.6"), 201);
    });

    test("only hops inside the list are skipped", async () => {
      // 127.0.0.9 is inside 127.0.0.0/8, so it is a proxy too and the client is 198.51.100.20
      await spend(api(), "192.0.2.1, 198.51.100.20, 127.0.0.9", "198.51.100.20");
      assert.equal(await signupStatus(api(), "198.51.100.20, 127.0.0.10"), 429);
      assert.equal(await signupStatus(api(), "198.51.100.21, 127.0.0.9"), 201);
    });
  });
});

describe("TRUST_PROXY as a CIDR list without the socket's address", () => {
  withApi({ TRUST_PROXY: "10.0.0.0/8, 192.168.0.0/16, ::1/128" }, (api) => {
    test("the header is ignored", async () => {
      await spend(api(), "203.0.113.5", "10.0.0.1, 203.0.113.6");
      assert.equal(await signupStatus(api(), "203.0.113.7"), 429);
      assert.equal(await signupStatus(api()), 429);
    });
  });
});

describe("client IP normalisation", () => {
  test("IPv4-mapped IPv6 addresses are written as IPv4; other addresses are kept, IPv6 in one canonical form", () => {
    assert.equal(normalizeIp("::ffff:127.0.0.1"), "127.0.0.1");
    assert.equal(normalizeIp("::FFFF:7f00:1"), "127.0.0.1");
    assert.equal(normalizeIp("203.0.113.9"), "203.0.113.9");
    assert.equal(normalizeIp("2001:DB8:0:0::1"), "2001:db8::1");
    assert.equal(normalizeIp("::1"), "::1");
    assert.equal(normalizeIp("fe80::1%eth0"), "fe80::1");
    // some proxies append the client's port
    assert.equal(normalizeIp("203.0.113.9:51234"), "203.0.113.9");
    assert.equal(normalizeIp("[2001:db8::1]:443"), "2001:db8::1");
    assert.equal(normalizeIp("not an address"), undefined);
    assert.equal(normalizeIp(""), undefined);
  });

  test("IPv6 addresses are bucketed by /64, IPv4 addresses are their own bucket", () => {
    assert.equal(clientIpBucket("2001:db8:1:2::1"), "2001:db8:1:2::/64");
    assert.equal(clientIpBucket("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
    assert.equal(clientIpBucket("::1"), "0:0:0:0::/64");
    assert.equal(clientIpBucket("2001:db8::1.2.3.4"), "2001:db8:0:0::/64");
    assert.equal(clientIpBucket("203.0.113.9"), "203.0.113.9");
  });
});
