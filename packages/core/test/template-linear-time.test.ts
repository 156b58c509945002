import assert from "node:assert/strict";
import { test } from "node:test";
import { countMergeTags, decodeEntities, escapeHtml, htmlToText, renderMessage, renderTemplate } from "../src/template.js";

// Templates are tenant input of up to 512 KiB. Inputs like these can make a
// renderer rescan the rest of the document once per tag (seconds to minutes);
// each must be answered within a second, a generous margin on a busy machine
// (they take milliseconds).
const WITHIN_MS = 1000;

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

function assertFastText(html: string, expected: string): void {
  const { result, ms } = timed(() => htmlToText(html));
  assert.ok(result === expected, `unexpected text for ${JSON.stringify(html.slice(0, 40))}...: ${JSON.stringify(result.slice(0, 80))}`);
  assert.ok(ms < WITHIN_MS, `htmlToText took ${Math.round(ms)} ms for ${JSON.stringify(html.slice(0, 40))}... (${html.length} characters)`);
}

test("unclosed raw-text and hidden elements repeated: <style>, <script>, <title>, <noscript>", () => {
  assertFastText("<style>".repeat(70_000), "");
  assertFastText("<script>".repeat(70_000), "");
  assertFastText("Hi<title>".repeat(50_000), "Hi".repeat(50_000));
  assertFastText("<noscript>".repeat(50_000) + "shown", "shown");
  assertFastText("<style></styl".repeat(40_000), "");
});

test("unclosed links repeated: <a>, <a href=x>, and one link around all of them", () => {
  assertFastText("<a>".repeat(160_000), "");
  assertFastText("<a href=x>".repeat(100_000), "");
  assertFastText("<a href=x>y".repeat(50_000) + "</a>", `${"y".repeat(50_000)} (x)`);
  assertFastText("<a href=https://e.example>x</a>".repeat(15_000), "x (https://e.example)".repeat(15_000));
});

test("unclosed comments and <pre> repeated", () => {
  assertFastText("<!--".repeat(100_000), "");
  assertFastText("text<!--".repeat(100_000), "text");
  assertFastText("<pre>".repeat(70_000), "");
  assertFastText("<pre>".repeat(70_000) + "x</pre>", "x");
  assertFastText(`<pre>${" ".repeat(500_000)}x</pre>`, `${" ".repeat(500_000)}x`);
});

test("tags that never end: text, not tags", () => {
  for (const unit of ["<a", "<p", "<style", "</", "<!x", '<a title="']) {
    const html = unit.repeat(Math.floor(400_000 / unit.length));
    assertFastText(html, html);
  }
});

test("deep nesting, many blocks, list items and entities", () => {
  assertFastText(`${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`, "deep");
  assertFastText("<li>".repeat(130_000), Array(130_000).fill("-").join("\n"));
  assertFastText("<br>".repeat(130_000) + "x", "x");
  assertFastText("&amp;".repeat(100_000), "&".repeat(100_000));
  assertFastText("&#x1F44B;".repeat(50_000), "\u{1F44B}".repeat(50_000));
  assertFastText("<td>a</td>".repeat(50_000), Array(50_000).fill("a").join(" "));
});

test("decodeEntities, escapeHtml and renderTemplate stay linear", () => {
  const entities = timed(() => decodeEntities("&amp;&#".repeat(100_000)));
  assert.equal(entities.result, "&&#".repeat(100_000));
  const escaped = timed(() => escapeHtml(`<&>"'`.repeat(100_000)));
  assert.equal(escaped.result.length, 100_000 * 24);
  const rendered = timed(() => renderTemplate(`{{${" ".repeat(50_000)}{{first_name}}{{ `.repeat(5), { firstName: "Ada" }, { html: true }));
  assert.equal(rendered.result, `{{${" ".repeat(50_000)}Ada{{ `.repeat(5));
  for (const { ms } of [entities, escaped, rendered]) assert.ok(ms < WITHIN_MS, `took ${Math.round(ms)} ms`);
});

test("a whole message rendered from a template at the size cap, full of merge tags", () => {
  const { result, ms } = timed(() => renderMessage({ subject: "{{first_name}}".repeat(70), bodyHtml: "<p>{{first_name}}</p>".repeat(24_000) }, { firstName: "Ada" }));
  assert.equal(result.subject, "Ada".repeat(70));
  assert.equal(result.text, Array(24_000).fill("Ada").join("\n\n"));
  assert.ok(ms < WITHIN_MS, `renderMessage took ${Math.round(ms)} ms`);
});

test("countMergeTags counts the tags that render a contact value", () => {
  assert.equal(countMergeTags("Hi {{first_name}} {{ last_name }} of {{company}} <{{email}}>, {{title}} {first_name} {{first_name}"), 4);
  assert.equal(countMergeTags(""), 0);
  assert.equal(countMergeTags("{{email}}".repeat(1000)), 1000);
});

// ------------------------------------------- the text of ordinary templates --

test("an ordinary table-based email renders as readable text", () => {
  const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Spring news</title>
<style type="text/css">body { margin: 0 } .btn { color: #fff }</style></head>
<body>
  <table width="100%" cellpadding="0"><tr><td align="center">
    <table width="600"><tr><td>
      <h1>Spring&nbsp;news from Acme</h1>
      <p>Hi Ada,</p>
      <p>We&rsquo;ve shipped <b>three</b> things:
      </p>
      <ul>
        <li>Faster exports</li>
        <li>A new <a href="https://acme.example/api?v=2&amp;lang=en">API</a></li>
        <li>Dark mode</li>
      </ul>
      <!-- tracking: campaign 42 -->
      <p><a href="https://acme.example/news" class="btn" style="color:#fff">Read more</a></p>
      <div>Questions? Write to <a href="mailto:help@acme.example">help@acme.example</a>.</div>
      <div>&nbsp;</div>
      <div>Acme &amp; Co &middot; 1 Main St<br>Springfield</div>
    </td></tr></table>
  </td></tr></table>
  <script>track("open")</script>
</body></html>`;
  assert.equal(
    htmlToText(html),
    [
      "Spring news from Acme",
      "",
      "Hi Ada,",
      "",
      "We\u2019ve shipped three things:",
      "",
      "- Faster exports",
      "- A new API (https://acme.example/api?v=2&lang=en)",
      "- Dark mode",
      "",
      "Read more (https://acme.example/news)",
      "",
      "Questions? Write to help@acme.example.",
      "",
      "Acme & Co \u00b7 1 Main St",
      "Springfield",
    ].join("\n"),
  );
});

test("blocks, breaks, cells, lists, links and <pre> keep their documented layout", () => {
  const cases: Array<[string, string]> = [
    ["<div>a</div><div>b</div>", "a\nb"],
    ["<div>a</div><span></span><div>b</div>", "a\n\nb"],
    ["<p>a</p>   <p>b</p>", "a\n\nb"],
    ["a<br><br>b", "a\n\nb"],
    ["a<br><br><br><br>b", "a\n\nb"],
    ["<div>a</div><div>&nbsp;</div><div>b</div>", "a\n\nb"],
    ["<table><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></table>", "x y\n1 2"],
    ["<ol><li> one </li><li></li><li>two</li></ol>", "- one\n-\n- two"],
    ["<pre>\n  a\n    b  \n</pre>", "  a\n    b"],
    ["<pre>x<br>y <b>z</b> &lt;</pre>", "x\ny z <"],
    ["<p>x</p><pre>unclosed <b>pre</b>   text", "x\n\nunclosed pre text"],
    ['<a href="https://x.example/a b">go</a>', "go (https://x.example/a b)"],
    ["<a href=https://x.example/>https://x.example</a>", "https://x.example"],
    ["<a HREF='mailto:ann@example.com'>ANN</a>", "ANN (mailto:ann@example.com)"],
    ['<a href="JavaScript:go()">Run</a>', "Run"],
    ['<a href="x">a <a href="y">b</a> c</a>', "a b (x) c"],
    ['<a href="x"><pre>p</pre></a>', "p (x)"],
    ["a &unknown; &amp;amp; &#60;b&#62; &#x110000; &#0;", "a &unknown; &amp; <b> \ufffd \ufffd"],
    ["<TITLE>t</TITLE><STYLE>s</STYLE ><p>x</p>", "x"],
    ["<p-x>a</p-x><header>b</header><h7>c</h7>", "a\n\nb\nc"],
    ["x <!-- a --> y <!-- b", "x y"],
    ['<?xml version="1.0"?><!DOCTYPE html>ok', "ok"],
    ["a\u00a0\u00a0b \u3000 c\n\nd", "a b c d"],
  ];
  for (const [html, text] of cases) assert.equal(htmlToText(html), text, `for ${JSON.stringify(html)}`);
});

test("quoted attribute values may contain >; reference names never reach Object.prototype", () => {
  assert.equal(htmlToText(`<a title="1 > 0" href="https://x.example">link</a> <img alt="<p>"> end`), "link (https://x.example) end");
  assert.equal(decodeEntities("&constructor; &toString; &hasOwnProperty;"), "&constructor; &toString; &hasOwnProperty;");
  assert.equal(htmlToText("<p>&constructor;</p>"), "&constructor;");
});

test("character references to the private-use characters cannot inject <pre> text", () => {
  assert.equal(htmlToText("<pre>secret</pre><p>&#xE000;0&#xE001;</p>"), "secret\n\n0");
  assert.equal(htmlToText("\uE0000\uE001<pre>x</pre>"), "0\n\nx");
});
