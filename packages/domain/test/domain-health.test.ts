import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { DomainHealthChecker, type HealthCheck } from "../src/deliverability/domain-health.js";

// The sender-domain checks against the loopback DNS server: each check's pass,
// warn and fail cases, and DNS failures reported as "could not check".

const GMAIL = "smtp.gmail.com";
const OUTLOOK = "smtp.office365.com";
const OWN_HOST = "mail.own.test";
const ZONE = "bl.test";

let dns: DnsTestServer;
let checker: DomainHealthChecker;

before(async () => {
  dns = await startDnsServer();
  checker = new DomainHealthChecker({ servers: [dns.address], dnsblZones: [ZONE], timeoutMs: 500, tries: 1, deadlineMs: 3_000 });
});

after(async () => {
  await dns?.close();
});

beforeEach(() => {
  dns.clear();
  dns.setA(GMAIL, ["192.0.2.25"]);
  dns.setA(OUTLOOK, ["192.0.2.26"]);
  dns.setA(OWN_HOST, ["198.51.100.7"]);
});

/** A domain with every record right for Google: MX, SPF, DKIM at google, DMARC reject. */
function healthyGoogleDomain(domain: string): void {
  dns.setMx(domain, [{ exchange: "aspmx.l.google.com", priority: 1 }]);
  dns.setTxt(domain, ["google-site-verification=abc", "v=spf1 include:_spf.google.com ~all"]);
  dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
  dns.setTxt(`google._domainkey.${domain}`, ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"]);
  dns.setTxt(`_dmarc.${domain}`, ["v=DMARC1; p=reject; adkim=s; rua=mailto:dmarc@" + domain]);
}

const spfOf = async (domain: string, hosts = [GMAIL]): Promise<HealthCheck> => (await checker.check(domain, { sendingHosts: hosts })).checks.spf;

describe("a healthy domain", () => {
  test("passes every check, each with what was found and a fix", async () => {
    healthyGoogleDomain("good.test");

    const health = await checker.check("Good.Test.", { sendingHosts: [GMAIL] });

    assert.equal(health.domain, "good.test");
    assert.equal(health.status, "pass");
    for (const [name, check] of Object.entries(health.checks)) {
      assert.equal(check.status, "pass", `${name}: ${check.detail}`);
      assert.ok(check.detail.length > 0 && check.fix.length > 0, name);
    }
    assert.match(health.checks.mx.detail, /aspmx\.l\.google\.com/);
    assert.match(health.checks.spf.detail, /includes _spf\.google\.com/);
    assert.match(health.checks.dkim.detail, /google\._domainkey\.good\.test/);
    assert.match(health.checks.dmarc.detail, /p=reject, adkim=strict, aspf=relaxed, aggregate reports to mailto:dmarc@good\.test/);
    assert.match(health.checks.blocklist.detail, /192\.0\.2\.25 on bl\.test/);
    assert.deepEqual(health.sendingHosts, [GMAIL]);
  });
});

describe("mx", () => {
  test("fails without MX records and with a null MX", async () => {
    dns.setA("nomx.test", ["192.0.2.1"]);
    dns.setMx("nullmx.test", [{ exchange: "", priority: 0 }]);

    const none = await checker.checkMx("nomx.test");
    const nullMx = await checker.checkMx("nullmx.test");
    const missing = await checker.checkMx("nxdomain.test");

    assert.equal(none.status, "fail");
    assert.match(none.detail, /no MX records/);
    assert.equal(nullMx.status, "fail");
    assert.match(nullMx.detail, /null MX/);
    assert.equal(missing.status, "fail");
  });
});

describe("spf", () => {
  test("fails without a record, with two records, and with +all", async () => {
    dns.setTxt("none.test", ["some-verification=1"]);
    dns.setTxt("two.test", ["v=spf1 include:_spf.google.com ~all", "v=spf1 -all"]);
    dns.setTxt("plusall.test", ["v=spf1 include:_spf.google.com +all"]);
    dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);

    const none = await spfOf("none.test");
    const two = await spfOf("two.test");
    const plusAll = await spfOf("plusall.test");

    assert.equal(none.status, "fail");
    assert.match(none.detail, /no SPF record/);
    assert.match(none.fix, /v=spf1 include:_spf\.google\.com ~all/);
    const ownHost = await spfOf("none.test", ["mail.none.test", "192.0.2.7"]);
    assert.match(ownHost.fix, /"v=spf1 a:mail\.none\.test ip4:192\.0\.2\.7 ~all"/, "a host of no known provider is authorized by its name or address");
    assert.equal(two.status, "fail");
    assert.match(two.detail, /2 SPF records/);
    assert.equal(plusAll.status, "fail");
    assert.match(plusAll.detail, /\+all/);
    assert.match(plusAll.fix, /Replace \+all/);
  });

  test("warns on ?all and passes ~all and -all", async () => {
    dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
    dns.setTxt("neutral.test", ["v=spf1 include:_spf.google.com ?all"]);
    dns.setTxt("soft.test", ["v=spf1 include:_spf.google.com ~all"]);
    dns.setTxt("hard.test", ["v=spf1 include:_spf.google.com -all"]);

    assert.equal((await spfOf("neutral.test")).status, "warn");
    assert.equal((await spfOf("soft.test")).status, "pass");
    assert.equal((await spfOf("hard.test")).status, "pass");
  });

  test("fails when it does not include the provider of the sending host", async () => {
    dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
    dns.setTxt("spf.protection.outlook.com", ["v=spf1 ip4:192.0.2.0/24 -all"]);
    dns.setTxt("wrong.test", ["v=spf1 include:_spf.google.com ~all"]);
    dns.setTxt("right.test", ["v=spf1 include:spf.protection.outlook.com -all"]);

    const wrong = await spfOf("wrong.test", [OUTLOOK]);
    const right = await spfOf("right.test", [OUTLOOK]);

    assert.equal(wrong.status, "fail");
    assert.match(wrong.detail, /does not include spf\.protection\.outlook\.com/);
    assert.equal(wrong.fix, "Add include:spf.protection.outlook.com before the all mechanism.");
    assert.equal(right.status, "pass");
  });

  test("fails over 10 DNS lookups counted through includes, and on an include loop", async () => {
    // 4 includes of 2 mechanisms each that query DNS (a, mx) plus the 4 includes themselves: 12
    const includes = ["one", "two", "three", "four"].map((n) => `_spf-${n}.many.test`);
    for (const name of includes) dns.setTxt(name, ["v=spf1 a mx ~all"]);
    dns.setTxt("many.test", [`v=spf1 include:_spf.google.com ${includes.map((i) => `include:${i}`).join(" ")} ~all`]);
    dns.setTxt("_spf.google.com", ["v=spf1 ip4:192.0.2.0/24 ~all"]);
    dns.setTxt("loop.test", ["v=spf1 include:_spf.loop.test include:_spf.google.com ~all"]);
    dns.setTxt("_spf.loop.test", ["v=spf1 include:loop.test ~all"]);

    const many = await spfOf("many.test");
    const loop = await spfOf("loop.test");

    assert.equal(many.status, "fail");
    assert.match(many.detail, /more than 10 DNS lookups/);
    assert.equal(loop.status, "fail");
    assert.match(loop.detail, /loop/);
  });

  test("another sending host: passes by its address, warns when an include may cover it, fails when nothing does", async () => {
    dns.setTxt("byip.test", ["v=spf1 ip4:198.51.100.0/24 -all"]);
    dns.setA("bya.test", ["198.51.100.7"]);
    dns.setTxt("bya.test", ["v=spf1 a -all"]);
    dns.setTxt("vendor.test", ["v=spf1 include:spf.vendor.test -all"]);
    dns.setTxt("spf.vendor.test", ["v=spf1 a:relay.vendor.test -all"]);
    dns.setTxt("notme.test", ["v=spf1 ip4:203.0.113.0/24 -all"]);

    assert.equal((await spfOf("byip.test", [OWN_HOST])).status, "pass");
    assert.equal((await spfOf("bya.test", [OWN_HOST])).status, "pass");
    const vendor = await spfOf("vendor.test", [OWN_HOST]);
    assert.equal(vendor.status, "warn");
    assert.match(vendor.detail, /cannot tell whether it authorizes mail\.own\.test/);
    const notMe = await spfOf("notme.test", [OWN_HOST]);
    assert.equal(notMe.status, "fail");
    assert.match(notMe.fix, /ip4:198\.51\.100\.7/);
  });
});

describe("dkim", () => {
  test("passes with a key at the provider's or the named selector, fails on a revoked key, warns when none is found", async () => {
    dns.setTxt("selector1._domainkey.ms.test", ["v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GN"]);
    dns.setTxt("custom._domainkey.named.test", ["v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GN"]);
    dns.setTxt("google._domainkey.revoked.test", ["v=DKIM1; k=rsa; p="]);

    const microsoft = await checker.checkDkim("ms.test", [OUTLOOK], null);
    const named = await checker.checkDkim("named.test", [OWN_HOST], "custom");
    const revoked = await checker.checkDkim("revoked.test", [GMAIL], null);
    const none = await checker.checkDkim("none.test", [GMAIL], null);

    assert.equal(microsoft.status, "pass");
    assert.match(microsoft.detail, /selector1\._domainkey\.ms\.test/);
    assert.equal(named.status, "pass");
    assert.equal(revoked.status, "fail");
    assert.match(revoked.detail, /revoked/);
    assert.equal(none.status, "warn");
    assert.match(none.detail, /google, default, s1, s2, k1, dkim, mail/);
  });
});

describe("dmarc", () => {
  test("fails when missing, warns on p=none, passes quarantine and reject, naming alignment and rua", async () => {
    dns.setTxt("_dmarc.none.test", ["v=DMARC1; p=none"]);
    dns.setTxt("_dmarc.quarantine.test", ["v=DMARC1; p=quarantine; aspf=s; rua=mailto:r@quarantine.test"]);

    const missing = await checker.checkDmarc("missing.test");
    const none = await checker.checkDmarc("none.test");
    const quarantine = await checker.checkDmarc("quarantine.test");

    assert.equal(missing.status, "fail");
    assert.match(missing.fix, /_dmarc\.missing\.test/);
    assert.equal(none.status, "warn");
    assert.match(none.detail, /p=none, adkim=relaxed, aspf=relaxed, no rua/);
    assert.equal(quarantine.status, "pass");
    assert.match(quarantine.detail, /aspf=strict, aggregate reports to mailto:r@quarantine\.test/);
  });
});

describe("blocklist", () => {
  test("fails when the sending host's address is listed (127.0.0.x), passes when not (NXDOMAIN)", async () => {
    dns.setA(`7.100.51.198.${ZONE}`, ["127.0.0.2"]);

    const listed = await checker.checkBlocklist([OWN_HOST]);
    const clean = await checker.checkBlocklist([GMAIL]);

    assert.equal(listed.status, "fail");
    assert.match(listed.detail, /mail\.own\.test \(198\.51\.100\.7\) is listed on bl\.test/);
    assert.equal(clean.status, "pass");
  });

  test("warns when no zone is configured, no sending host is known, or the zone refuses the query", async () => {
    const unchecked = new DomainHealthChecker({ servers: [dns.address], dnsblZones: [], timeoutMs: 500, tries: 1 });
    dns.setA(`25.2.0.192.${ZONE}`, ["127.255.255.254"]);

    const noZones = await unchecked.checkBlocklist([GMAIL]);
    const noHost = await checker.checkBlocklist([]);
    const refused = await checker.checkBlocklist([GMAIL]);

    assert.equal(noZones.status, "warn");
    assert.match(noZones.detail, /not checked/);
    assert.equal(noHost.status, "warn");
    assert.match(noHost.detail, /No sending host known/);
    assert.equal(refused.status, "warn");
  });
});

describe("DNS failures", () => {
  test("a SERVFAIL is 'could not check', not a missing record", async () => {
    healthyGoogleDomain("flaky.test");
    dns.setServFail("_dmarc.flaky.test");

    const health = await checker.check("flaky.test", { sendingHosts: [GMAIL] });

    assert.equal(health.checks.dmarc.status, "warn");
    assert.match(health.checks.dmarc.detail, /Could not check the DMARC record \(DNS ESERVFAIL\)/);
    assert.equal(health.status, "warn");
  });

  test("an unreachable DNS server gives warnings within the deadline, never an exception", async () => {
    const dead = await startDnsServer();
    const address = dead.address;
    await dead.close();
    const offline = new DomainHealthChecker({ servers: [address], dnsblZones: [ZONE], timeoutMs: 200, tries: 1, deadlineMs: 1_000 });

    const health = await offline.check("offline.test", { sendingHosts: [GMAIL] });

    assert.equal(health.status, "warn");
    for (const [name, check] of Object.entries(health.checks)) {
      assert.equal(check.status, "warn", name);
      assert.match(check.detail, /could not check/i, name);
    }
  });
});
