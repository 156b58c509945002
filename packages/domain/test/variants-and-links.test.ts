import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { test } from "node:test";
import { Keyring } from "@outreach/core";
import { buildStepEmail } from "../src/sending/build-step-email.js";
import { isTemplateLink, rewriteLinks, templateLinks } from "../src/tracking/click-tracking.js";
import { pickVariant, stepContentFor } from "../src/sending/step-variants.js";
import { clickTrackingUrl, trackingBase } from "../src/tracking/tracking-links.js";
import { createClickToken, readClickToken } from "../src/tracking/tracking-token.js";

const key = randomBytes(32);

test("a variant per enrollment and step: the same on every call, spread by weight", () => {
  const variants = [
    { id: "a", weight: 1 },
    { id: "b", weight: 3 },
  ];
  const counts = { a: 0, b: 0 };
  for (let i = 0; i < 4000; i++) {
    const enrollmentId = randomUUID();
    const picked = pickVariant(variants, enrollmentId, 1);
    assert.equal(pickVariant(variants, enrollmentId.toUpperCase(), 1), picked, "stable, whatever the id's case");
    counts[picked.id as "a" | "b"] += 1;
  }
  // expected 1000 of 4000 for weight 1 of 4 (sd ~27): within 6 sd
  assert.ok(counts.a > 840 && counts.a < 1160, `weight 1 of 4 got ${counts.a}`);
  // steps are drawn independently: step 2's variant does not follow step 1's
  let same = 0;
  const even = [
    { id: "x", weight: 1 },
    { id: "y", weight: 1 },
  ];
  for (let i = 0; i < 2000; i++) {
    const enrollmentId = randomUUID();
    if (pickVariant(even, enrollmentId, 1).id === pickVariant(even, enrollmentId, 2).id) same += 1;
  }
  assert.ok(same > 850 && same < 1150, `same variant on both steps ${same} of 2000`);
});

test("a step without variants sends its own subject and body", () => {
  assert.deepEqual(stepContentFor({ subject: "S", bodyHtml: "B", variants: null }, randomUUID(), 1), { subject: "S", bodyHtml: "B", variantId: null });
  const id = randomUUID();
  const content = stepContentFor(
    {
      subject: "S",
      bodyHtml: "B",
      variants: [
        { id, subject: "V", bodyHtml: "VB", weight: 1 },
        { id: randomUUID(), subject: "W", bodyHtml: "WB", weight: 1 },
      ],
    },
    randomUUID(),
    1,
  );
  assert.ok(["V", "W"].includes(content.subject));
});

test("links in the HTML are rewritten: http(s) only, quotes and entities handled, everything else kept", () => {
  const html = `<p><a href="https://a.test/x?y=1&amp;z=2">one</a> <A HREF='http://b.test'>two</A> <a href=https://c.test/p>three</a>
<a href="mailto:me@d.test">mail</a> <a href="#top">top</a> <a name="n">anchor</a> <abbr title="a">x</abbr> <a data-x="a>b" href="https://e.test">five</a></p>`;
  const seen: string[] = [];
  const out = rewriteLinks(html, (url) => {
    seen.push(url);
    return `https://t.test/c?u=${encodeURIComponent(url)}&k=1`;
  });
  assert.deepEqual(seen, ["https://a.test/x?y=1&z=2", "http://b.test", "https://c.test/p", "https://e.test"]);
  assert.match(out, /<a href="https:\/\/t\.test\/c\?u=https%3A%2F%2Fa\.test%2Fx%3Fy%3D1%26z%3D2&amp;k=1">one<\/a>/);
  assert.match(out, /<A HREF="https:\/\/t\.test\/c\?u=http%3A%2F%2Fb\.test&amp;k=1">two<\/A>/);
  assert.match(out, /<a href="https:\/\/t\.test\/c\?u=https%3A%2F%2Fc\.test%2Fp&amp;k=1">three<\/a>/);
  assert.match(out, /<a data-x="a>b" href="https:\/\/t\.test\/c\?u=https%3A%2F%2Fe\.test&amp;k=1">five<\/a>/);
  assert.match(out, /<a href="mailto:me@d\.test">mail<\/a> <a href="#top">top<\/a> <a name="n">anchor<\/a> <abbr title="a">x<\/abbr>/);
  // an unterminated tag ends the rewriting; nothing is lost
  assert.equal(
    rewriteLinks(`<p>x</p><a href="https://a.test"`, () => "https://t.test"),
    `<p>x</p><a href="https://a.test"`,
  );
  assert.equal(
    rewriteLinks("no links", () => "x"),
    "no links",
  );
});

test("rewriting stays linear on hostile markup", () => {
  // many unterminated anchors, and many anchors with long attribute runs: each would be quadratic for a backtracking scan
  const hostile = ["<a ".repeat(150_000), `<a ${"x ".repeat(100_000)}href="https://a.test">y</a>`.repeat(2), "<a href=".repeat(60_000)];
  for (const html of hostile) {
    const started = process.hrtime.bigint();
    rewriteLinks(html, () => "https://t.test");
    // generous: catches a quadratic blow-up (minutes), not a slow machine
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 5_000);
  }
});

test("a click token covers its enrollment and its destination: any change is refused, under any configured key", () => {
  const enrollmentId = randomUUID();
  const { token, encodedUrl } = createClickToken(enrollmentId, "https://a.test/x?y=1", key);
  assert.deepEqual(readClickToken(token, encodedUrl, key), { enrollmentId, url: "https://a.test/x?y=1" });
  const other = createClickToken(enrollmentId, "https://evil.test/", key);
  assert.equal(readClickToken(token, other.encodedUrl, key), null, "another destination under the token");
  assert.equal(readClickToken(other.token, encodedUrl, key), null);
  assert.equal(readClickToken(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), encodedUrl, key), null);
  assert.equal(readClickToken(token, `${encodedUrl}x`, key), null);
  assert.equal(readClickToken(token, encodedUrl, randomBytes(32)), null, "another key");
  const javascript = createClickToken(enrollmentId, "javascript:alert(1)", key);
  assert.equal(readClickToken(javascript.token, javascript.encodedUrl, key), null, "only http(s) destinations");
  for (const bad of [undefined, "", "!!", "a".repeat(43)]) assert.equal(readClickToken(bad, encodedUrl, key), null);
  const rotated = new Keyring(randomBytes(32), [key]);
  assert.deepEqual(readClickToken(token, encodedUrl, rotated), { enrollmentId, url: "https://a.test/x?y=1" }, "a link sent before a key rotation still works");
});

test("a custom tracking domain replaces PUBLIC_BASE_URL's host and keeps its scheme, port and path", () => {
  assert.equal(trackingBase("https://api.example.com/outreach/", null), "https://api.example.com/outreach");
  assert.equal(trackingBase("https://api.example.com/outreach/", "track.acme.com"), "https://track.acme.com/outreach");
  assert.equal(trackingBase("http://localhost:3000", "track.acme.com"), "http://track.acme.com:3000");
  const enrollmentId = randomUUID();
  assert.match(clickTrackingUrl("https://track.acme.com", key, enrollmentId, "https://a.test"), /^https:\/\/track\.acme\.com\/t\/c\/[A-Za-z0-9_-]{43}\/[A-Za-z0-9_-]+$/);
});

test("an email with click tracking: HTML links rewritten to the redirect, the text part keeps the destinations", () => {
  const enrollmentId = randomUUID();
  const email = buildStepEmail({
    stepSendId: randomUUID(),
    enrollmentId,
    stepPosition: 1,
    subject: "Hi",
    bodyHtml: `<p><a href="https://acme.test/a?b=1&amp;c=2">Read</a></p>`,
    firstSubject: null,
    contact: { email: "ann@example.com", firstName: "Ann" },
    from: { email: "s@acme.test", name: null },
    previousMessageIds: [],
    publicBaseUrl: "https://outreach.example.com",
    trackingDomain: "t.acme.test",
    trackClicks: true,
    trackingKey: key,
  });
  const link = /<a href="(https:\/\/t\.acme\.test\/t\/c\/([^/"]+)\/([^"]+))">Read<\/a>/.exec(email.html!);
  assert.ok(link, email.html);
  assert.deepEqual(readClickToken(link[2], link[3], key), { enrollmentId, url: "https://acme.test/a?b=1&c=2" });
  assert.match(email.text, /https:\/\/acme\.test\/a\?b=1&c=2/);
  assert.match(email.headers["List-Unsubscribe"]!, /^<https:\/\/t\.acme\.test\/u\//);
  const untracked = buildStepEmail({
    ...{ stepSendId: randomUUID(), enrollmentId, stepPosition: 1, subject: "Hi", bodyHtml: `<a href="https://acme.test/">x</a>`, firstSubject: null },
    contact: { email: "a@b.test" },
    from: { email: "s@acme.test", name: null },
    previousMessageIds: [],
    publicBaseUrl: "https://o.test",
    trackingKey: key,
  });
  assert.match(untracked.html!, /<a href="https:\/\/acme\.test\/">x<\/a>/);
});

test("only links whose scheme and host are written in the template are trackable; a merge tag after the host matches any value", () => {
  const links = templateLinks(
    `<a href="https://acme.test/docs">a</a> <a href="https://acme.test/p?plan=pro&amp;ref={{first_name}}&amp;c={{ custom.code | 'x' }}">b</a>
<a href="{{custom.url}}">c</a> <a href=" https://{{company}}.test/">d</a> <a href="https://acme.test{{custom.path}}">e</a> <a href="https://acme.test@{{custom.host}}/">f</a>
<a href="mailto:{{email}}">g</a> <a href="https://acme.test\\{{custom.x}}">h</a>`,
  );
  assert.deepEqual(links, [["https://acme.test/docs"], ["https://acme.test/p?plan=pro&ref=", "&c=", ""], ["https://acme.test\\", ""]]);
  assert.ok(isTemplateLink(links, "https://acme.test/docs"));
  assert.ok(!isTemplateLink(links, "https://acme.test/docs/other"), "a literal link matches exactly");
  assert.ok(isTemplateLink(links, "https://acme.test/p?plan=pro&ref=Ann&c=42"));
  assert.ok(isTemplateLink(links, "https://acme.test/p?plan=pro&ref=&c="));
  assert.ok(!isTemplateLink(links, "https://acme.test/p?plan=pro&ref=Ann"), "every literal part in order");
  assert.ok(!isTemplateLink(links, "https://evil.test/"));
  assert.ok(isTemplateLink(links, "https://acme.test\\x"));
  assert.ok(!isTemplateLink(links, "https://acme.test.evil.test/"));
});

test("an email with click tracking leaves a link made from a contact's field as it is", () => {
  const enrollmentId = randomUUID();
  const email = buildStepEmail({
    stepSendId: randomUUID(),
    enrollmentId,
    stepPosition: 1,
    subject: "Hi",
    bodyHtml: `<p><a href="{{custom.url}}">Yours</a> <a href="https://acme.test/p?ref={{custom.url}}">Ours</a></p>`,
    firstSubject: null,
    contact: { email: "ann@example.com", customFields: { url: "https://evil.test/x" } },
    from: { email: "s@acme.test", name: null },
    previousMessageIds: [],
    publicBaseUrl: "https://outreach.example.com",
    trackClicks: true,
    trackingKey: key,
  });
  assert.match(email.html!, /<a href="https:\/\/evil\.test\/x">Yours<\/a>/);
  const ours = /<a href="https:\/\/outreach\.example\.com\/t\/c\/([^/"]+)\/([^"]+)">Ours<\/a>/.exec(email.html!);
  assert.ok(ours, email.html);
  assert.deepEqual(readClickToken(ours[1], ours[2], key), { enrollmentId, url: "https://acme.test/p?ref=https://evil.test/x" });
});
