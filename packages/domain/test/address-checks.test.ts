import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { once } from "node:events";
import { after, before, test } from "node:test";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { addressVerdict, checkAddresses, isDisposableDomain, isDisposableEmail, isRoleAccount, roleKey } from "../src/audience/address-checks.js";
import { inboxProvider, providerOfMxHosts, providerOfSmtpHost } from "../src/audience/mail-provider.js";
import { MxVerifier } from "../src/audience/mx-lookup.js";

let dns: DnsTestServer;

before(async () => {
  dns = await startDnsServer();
});

after(async () => {
  await dns?.close();
});

test("disposable domains come from the package's list, subdomains of a listed domain included, case ignored", () => {
  assert.equal(isDisposableDomain("mailinator.com"), true);
  assert.equal(isDisposableDomain("MAILINATOR.com."), true);
  assert.equal(isDisposableDomain("eu.mailinator.com"), true, "a subdomain of a listed domain");
  assert.equal(isDisposableDomain("zzyopmail.com"), false, "a suffix that is not a label boundary");
  assert.equal(isDisposableDomain("example.com"), false);
  assert.equal(isDisposableDomain("gmail.com"), false);
  assert.equal(isDisposableEmail("Someone@YopMail.com"), true);
  assert.equal(isDisposableEmail("ann@northwind.example"), false);
});

test("role accounts are compared ignoring case, dots, dashes, underscores and a +tag", () => {
  for (const email of [
    "info@x.example",
    "INFO@x.example",
    "in.fo@x.example",
    "info+news@x.example",
    "No-Reply@x.example",
    "no_reply@x.example",
    "noreply@x.example",
    "support@x.example",
    "sales@x.example",
    "postmaster@x.example",
  ]) {
    assert.equal(isRoleAccount(email), true, email);
  }
  for (const email of ["ann@x.example", "information@x.example", "ann.info@x.example", "salesperson@x.example"]) {
    assert.equal(isRoleAccount(email), false, email);
  }
  assert.equal(roleKey("Web.Master+x@y.example"), "webmaster");
});

test("the verdict: invalid for bad syntax or no MX, risky for disposable, role or an unknown MX, valid otherwise", () => {
  const ok = { email: "ann@x.example", syntax: true, mx: "valid" as const, disposable: false, role: false };
  assert.equal(addressVerdict(ok).status, "valid");
  assert.deepEqual(addressVerdict({ ...ok, syntax: false, mx: null }).status, "invalid");
  const noMx = addressVerdict({ ...ok, mx: "no_mx" });
  assert.equal(noMx.status, "invalid");
  assert.equal(noMx.mx, false);
  assert.match(noMx.reason, /no MX/);
  assert.equal(addressVerdict({ ...ok, disposable: true }).status, "risky");
  assert.equal(addressVerdict({ ...ok, role: true }).status, "risky");
  const unknown = addressVerdict({ ...ok, mx: "unknown" });
  assert.equal(unknown.status, "risky");
  assert.equal(unknown.mx, false);
});

test("checkAddresses looks each domain up once through the DNS server and answers in the input order", async () => {
  dns.setMx("checks-good.test", [{ exchange: "mx.checks-good.test", priority: 10 }]);
  dns.setNoMx("checks-nomx.test");
  dns.setNxDomain("checks-missing.test");
  const mx = new MxVerifier([dns.address]);
  const syntax = (e: string) => (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e.trim()) ? e.trim().toLowerCase() : null);
  const results = await checkAddresses(["Ann@checks-good.test", "bob@checks-good.test", "info@checks-good.test", "x@checks-nomx.test", "y@checks-missing.test", "not an address"], syntax, mx);
  assert.deepEqual(
    results.map((r) => [r.email, r.status, r.syntax, r.mx, r.role]),
    [
      ["Ann@checks-good.test", "valid", true, true, false],
      ["bob@checks-good.test", "valid", true, true, false],
      ["info@checks-good.test", "risky", true, true, true],
      ["x@checks-nomx.test", "invalid", true, false, false],
      ["y@checks-missing.test", "invalid", true, false, false],
      ["not an address", "invalid", false, false, false],
    ],
  );
  assert.equal(dns.queryCount("checks-good.test"), 1, "one look-up for three addresses of the domain");
});

test("MX answers keep the host names, and they tell the recipient's provider", async () => {
  dns.setMx("gsuite.test", [
    { exchange: "alt1.aspmx.l.google.com", priority: 5 },
    { exchange: "aspmx.l.google.com", priority: 1 },
  ]);
  dns.setMx("m365.test", [{ exchange: "m365-test.mail.protection.outlook.com", priority: 0 }]);
  dns.setMx("own.test", [{ exchange: "mx.own.test", priority: 10 }]);
  const mx = new MxVerifier([dns.address]);
  const answers = await mx.answerAll(["gsuite.test", "m365.test", "own.test"]);
  assert.deepEqual(answers.get("gsuite.test"), { verdict: "valid", hosts: ["aspmx.l.google.com", "alt1.aspmx.l.google.com"] });
  assert.equal(providerOfMxHosts(answers.get("gsuite.test")!.hosts), "google");
  assert.equal(providerOfMxHosts(answers.get("m365.test")!.hosts), "microsoft");
  assert.equal(providerOfMxHosts(answers.get("own.test")!.hosts), null);
  assert.equal(providerOfMxHosts(["smtp.googlemail.com."]), "google");
});

test("an inbox's provider: the credential's own, else its OAuth2 connection's, else its SMTP host's", () => {
  assert.equal(providerOfSmtpHost("smtp.gmail.com"), "google");
  assert.equal(providerOfSmtpHost("smtp-relay.google.com"), "google");
  assert.equal(providerOfSmtpHost("smtp.office365.com"), "microsoft");
  assert.equal(providerOfSmtpHost("smtp-mail.outlook.com"), "microsoft");
  assert.equal(providerOfSmtpHost("mail.example.com"), "other");
  assert.equal(inboxProvider({ provider: "google", smtpHost: "127.0.0.1" }), "google");
  assert.equal(inboxProvider({ provider: null, oauthProvider: "microsoft", smtpHost: "127.0.0.1" }), "microsoft");
  assert.equal(inboxProvider({ provider: null, oauthProvider: null, smtpHost: "smtp.gmail.com" }), "google");
  assert.equal(inboxProvider({ provider: "other", oauthProvider: "google", smtpHost: "smtp.gmail.com" }), "other", "the credential's own wins");
});

test("with a deadline, domains whose DNS server does not answer by then are unknown: the addresses are risky, not waited for", async () => {
  // a DNS server that never answers
  const silent = createSocket("udp4");
  silent.bind(0, "127.0.0.1");
  await once(silent, "listening");
  try {
    const mx = new MxVerifier([`127.0.0.1:${silent.address().port}`]);
    const syntax = (e: string) => e.trim().toLowerCase();
    const results = await checkAddresses(["a@slow-one.test", "b@slow-two.test", "info@slow-one.test"], syntax, mx, { deadlineMs: 200 });
    assert.deepEqual(
      results.map((r) => [r.email, r.status, r.mx, r.role]),
      [
        ["a@slow-one.test", "risky", false, false],
        ["b@slow-two.test", "risky", false, false],
        ["info@slow-one.test", "risky", false, true],
      ],
    );
    assert.match(results[0]!.reason, /gave no answer/);
  } finally {
    silent.close();
  }
});
