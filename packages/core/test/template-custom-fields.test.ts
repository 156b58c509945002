import assert from "node:assert/strict";
import { test } from "node:test";
import { countMergeTags, missingMergeTags, missingMessageTags, renderMessage, renderTemplate, type MergeContact } from "../src/template.js";

const ann: MergeContact = { firstName: "Ann", email: "ann@example.com", customFields: { plan: "pro", seats: 12, trial: false, ratio: 0.5, blank: "  " } };

test("{{custom.<key>}} renders the contact's custom field: strings as they are, numbers with String(), booleans as true/false", () => {
  assert.equal(renderTemplate("{{custom.plan}}/{{ custom.seats }}/{{custom.trial}}/{{custom.ratio}}", ann, { html: false }), "pro/12/false/0.5");
  assert.equal(renderTemplate("[{{custom.zero}}]", { customFields: { zero: 0 } }, { html: false }), "[0]");
});

test("a missing, null or blank value renders its fallback, or an empty string without one", () => {
  const template = `{{custom.nope | "n/a"}} {{custom.blank|'none'}} {{ last_name |"there" }} {{company}}! {{custom.nope}}.`;
  assert.equal(renderTemplate(template, ann, { html: false }), "n/a none there ! .");
  assert.equal(renderTemplate('Hi {{first_name | "there"}}', { firstName: null }, { html: false }), "Hi there");
  assert.equal(renderTemplate('Hi {{first_name | "there"}}', { firstName: "   " }, { html: false }), "Hi there");
  assert.equal(renderTemplate('Hi {{first_name | "there"}}', ann, { html: false }), "Hi Ann");
  assert.equal(renderTemplate("{{custom.plan | ''}}{{custom.x | ''}}", ann, { html: false }), "pro");
  // contacts without custom fields, or with a stored value of another shape
  for (const customFields of [undefined, null, "plan", ["pro"], { plan: { nested: 1 } }, { plan: null }, { plan: Number.NaN }]) {
    assert.equal(renderTemplate('[{{custom.plan|"free"}}]', { customFields } as MergeContact, { html: false }), "[free]", JSON.stringify(customFields));
  }
});

test("fallbacks: either quote, whitespace anywhere around the parts, the other quote inside", () => {
  const empty: MergeContact = {};
  assert.equal(renderTemplate(`{{first_name|"a"}}{{first_name | 'b'}}{{\tfirst_name\n|\n"c" }}{{  company  |  "your team's"  }}`, empty, { html: false }), "abcyour team's");
  assert.equal(renderTemplate(`{{company | 'the "best"'}}`, empty, { html: false }), 'the "best"');
  assert.equal(renderTemplate(`{{company | "  spaced  "}}`, empty, { html: false }), "  spaced  ");
});

test("malformed fallbacks and custom tags are left as written", () => {
  const cases = [
    `{{first_name | there}}`,
    `{{first_name | "there'}}`,
    `{{first_name | "there}}`,
    `{{first_name | "a"b"}}`,
    `{{first_name || "a"}}`,
    `{{first_name | "a" | "b"}}`,
    `{{first_name | "{x}"}}`,
    `{{first_name | "line\nbreak"}}`,
    `{{first_name | "${"x".repeat(201)}"}}`,
    `{{custom.}}`,
    `{{custom.1st}}`,
    `{{custom.my-key}}`,
    `{{custom.a.b}}`,
    `{{Custom.plan}}`,
    `{{custom .plan}}`,
    `{{custom.${"k".repeat(65)}}}`,
    `{{title | "x"}}`,
    `{{custom.plan}`,
  ];
  for (const template of cases) assert.equal(renderTemplate(template, ann, { html: false }), template, template);
  assert.equal(renderTemplate(`{{first_name | "${"x".repeat(200)}"}}`, {}, { html: false }), "x".repeat(200));
  assert.equal(renderTemplate(`{{custom.${"k".repeat(64)}}}`, { customFields: { ["k".repeat(64)]: "long" } }, { html: false }), "long");
});

test("custom keys are case-sensitive and never reach Object.prototype", () => {
  assert.equal(renderTemplate("{{custom.Plan|'?'}} {{custom.constructor|'?'}} {{custom.toString}} {{custom.__proto__|'?'}}", ann, { html: false }), "? ?  ?");
  const own = JSON.parse('{"__proto__": "own", "constructor": "mine"}');
  assert.equal(renderTemplate("{{custom.__proto__}} {{custom.constructor}}", { customFields: own }, { html: false }), "own mine");
});

test("values and fallbacks are HTML-escaped in HTML templates, not in subjects", () => {
  const contact: MergeContact = { customFields: { note: `<b>"Tom" & 'Jerry'</b>` } };
  const template = `<p>{{custom.note}} {{first_name | "<i>you & me</i>"}}</p>`;
  assert.equal(renderTemplate(template, contact, { html: true }), "<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt; &lt;i&gt;you &amp; me&lt;/i&gt;</p>");
  assert.equal(renderTemplate(template, contact, { html: false }), `<p><b>"Tom" & 'Jerry'</b> <i>you & me</i></p>`);
});

test("tags inside values and fallbacks are not rendered again", () => {
  assert.equal(renderTemplate("{{custom.a}} {{custom.b | 'x'}}", { customFields: { a: "{{custom.b}}" } }, { html: false }), "{{custom.b}} x");
});

test("renderMessage renders custom tags and fallbacks in subject, HTML and text, folding line breaks out of the subject", () => {
  const message = renderMessage(
    { subject: `{{first_name | "Hi there"}}: your {{custom.plan}} plan`, bodyHtml: `<p>Hello {{ first_name | "there" }},</p><p>{{custom.seats}} seats on {{custom.plan | "free"}}.</p>` },
    { customFields: { plan: "pro\r\nBcc: x@example.com", seats: 3 } },
  );
  assert.equal(message.subject, "Hi there: your pro Bcc: x@example.com plan");
  assert.equal(message.html, "<p>Hello there,</p><p>3 seats on pro\r\nBcc: x@example.com.</p>");
  assert.equal(message.text, "Hello there,\n\n3 seats on pro Bcc: x@example.com.");
});

test("missingMergeTags lists the tags that render empty (no value, no fallback), sorted and once each", () => {
  const template = "{{first_name}} {{custom.plan}} {{ custom.plan }} {{custom.tier}} {{company | 'x'}} {{last_name}} {{custom.seats}} {{title}} {{custom.blank}}";
  assert.deepEqual(missingMergeTags(template, ann), ["custom.blank", "custom.tier", "last_name"]);
  assert.deepEqual(missingMergeTags(template, {}), ["custom.blank", "custom.plan", "custom.seats", "custom.tier", "first_name", "last_name"]);
  assert.deepEqual(missingMergeTags("no tags", {}), []);
  assert.deepEqual(missingMessageTags({ subject: "{{custom.plan}} {{first_name}}", bodyHtml: "<p>{{first_name}} {{custom.a}}</p>" }, {}), ["custom.a", "custom.plan", "first_name"]);
});

test("countMergeTags counts standard and custom tags, with or without a fallback, and nothing else", () => {
  assert.equal(countMergeTags(`{{custom.plan}} {{first_name | "there"}} {{ custom.x|'y' }} {{custom.}} {{title}} {{first_name | nope}}`), 3);
  assert.equal(countMergeTags("{{custom.a}}".repeat(500)), 500);
});

test("adversarial templates of 500 KB render (one forward scan, no backtracking)", () => {
  const size = 500_000;
  const count = (unit: string) => Math.floor(size / unit.length);
  const fill = (unit: string, as = unit) => as.repeat(count(unit));
  const contact: MergeContact = { firstName: "Ada", customFields: { k: "v" } };
  const cases: Array<[string, string]> = [
    [fill(`{{first_name | "`), fill(`{{first_name | "`)],
    [fill(`{{custom.k|'x`), fill(`{{custom.k|'x`)],
    [`{{first_name | "${" ".repeat(size)}`, `{{first_name | "${" ".repeat(size)}`],
    [`{{first_name${" ".repeat(size)}|${" ".repeat(size)}"x"${" ".repeat(size)}}}`, "Ada"],
    [fill("{{custom."), fill("{{custom.")],
    [`{{custom.${"k".repeat(size)}}}`, `{{custom.${"k".repeat(size)}}}`],
    [fill("{"), fill("{")],
    [fill(`{{first_name|"${"x".repeat(199)}`), fill(`{{first_name|"${"x".repeat(199)}`)],
    [fill(`{{custom.k|'{{custom.k|"{{custom.k}}'}}`), fill(`{{custom.k|'{{custom.k|"{{custom.k}}'}}`, `{{custom.k|'{{custom.k|"v'}}`)],
    [fill(`{{custom.k | "x"}}`), fill(`{{custom.k | "x"}}`, "v")],
    [fill(`{{custom.${"k".repeat(70)}`), fill(`{{custom.${"k".repeat(70)}`)],
    [fill(`{{email |'${"x".repeat(200)}' `), fill(`{{email |'${"x".repeat(200)}' `)],
    [fill("{{ email \n\t"), fill("{{ email \n\t")],
  ];
  for (const [template, expected] of cases) {
    // (compared without assert.equal, whose message would print half a megabyte)
    assert.ok(renderTemplate(template, contact, { html: true }) === expected, `renders ${JSON.stringify(template.slice(0, 40))}...`);
    missingMergeTags(template, contact);
    countMergeTags(template);
  }
});
