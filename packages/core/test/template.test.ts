import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeEntities, escapeHtml, htmlToText, renderMessage, renderTemplate } from "../src/template.js";

const ada = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", company: "Analytical Engines" };

test("renderTemplate replaces the four merge tags, with or without inner whitespace", () => {
  const template = "{{first_name}} {{ last_name }} <{{email}}> at {{  company\t}}; again {{first_name}}";
  assert.equal(renderTemplate(template, ada, { html: false }), "Ada Lovelace <ada@example.com> at Analytical Engines; again Ada");
});

test("renderTemplate renders missing values as empty strings", () => {
  assert.equal(renderTemplate("Hi {{first_name}}{{last_name}}, from {{company}}.", { email: "x@example.com", firstName: null }, { html: true }), "Hi , from .");
  assert.equal(renderTemplate("[{{email}}]", {}, { html: false }), "[]");
});

test("renderTemplate leaves unknown and malformed tags untouched", () => {
  const template = "{{title}} {{ First_Name }} {first_name} {{first_name} {{{first_name}}} {{ email_address }}";
  assert.equal(renderTemplate(template, ada, { html: false }), "{{title}} {{ First_Name }} {first_name} {{first_name} {Ada} {{ email_address }}");
});

test("renderTemplate escapes values in HTML templates but not in subjects", () => {
  const contact = { firstName: `<script>alert("x")</script>`, company: "Tom & Jerry's" };
  assert.equal(renderTemplate("<p>{{first_name}} / {{company}}</p>", contact, { html: true }), "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; / Tom &amp; Jerry&#39;s</p>");
  assert.equal(renderTemplate("{{first_name}} / {{company}}", contact, { html: false }), `<script>alert("x")</script> / Tom & Jerry's`);
});

test("renderTemplate does not re-render merge tags that come from contact values", () => {
  assert.equal(renderTemplate("Hi {{first_name}}", { firstName: "{{email}}", email: "secret@example.com" }, { html: false }), "Hi {{email}}");
});

test("escapeHtml covers the five significant characters", () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});

test("renderMessage renders subject, HTML and the plain-text alternative, folding line breaks out of the subject", () => {
  const message = renderMessage(
    { subject: "Hello {{first_name}} from {{company}}", bodyHtml: '<p>Hi <b>{{first_name}}</b>,</p><p>See <a href="https://example.com/?a=1&amp;b=2">our site</a>.</p>' },
    { firstName: "Ann", company: "A & B\r\nBcc: evil@example.com" },
  );
  assert.equal(message.subject, "Hello Ann from A & B Bcc: evil@example.com");
  assert.equal(message.html, '<p>Hi <b>Ann</b>,</p><p>See <a href="https://example.com/?a=1&amp;b=2">our site</a>.</p>');
  assert.equal(message.text, "Hi Ann,\n\nSee our site (https://example.com/?a=1&b=2).");
});

test("htmlToText strips tags and drops script, style, head and comment content", () => {
  const html = `<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style></head>
    <body><!-- hidden --><script type="text/javascript">var x = "<p>no</p>";</script><p>Visible <span class="x">text</span></p><style>.a{}</style></body></html>`;
  assert.equal(htmlToText(html), "Visible text");
  assert.equal(htmlToText("before<script>never closed"), "before");
});

test("htmlToText collapses source whitespace and keeps paragraph and line breaks", () => {
  const html = `<p>First
      paragraph   with   spaces.</p>
    <p>Second<br>line two<br/>line three</p><div>A div</div><div>Another div</div><h1>Title</h1>tail`;
  assert.equal(htmlToText(html), "First paragraph with spaces.\n\nSecond\nline two\nline three\n\nA div\nAnother div\n\nTitle\n\ntail");
});

test("htmlToText keeps link targets as text (url), without repeating a url that is its own text", () => {
  assert.equal(htmlToText(`Read <a href="https://example.com/post" class="x">the <em>post</em></a> now.`), "Read the post (https://example.com/post) now.");
  assert.equal(htmlToText(`<a href='https://example.com'>https://example.com</a>`), "https://example.com");
  assert.equal(htmlToText(`<a href="mailto:ann@example.com">ann@example.com</a>`), "ann@example.com");
  assert.equal(htmlToText(`<a href="#top">Top</a> <a name="x">Anchor</a> <a href="javascript:void(0)">Run</a>`), "Top Anchor Run");
  assert.equal(htmlToText(`<a href="https://example.com/?q=a&amp;r=b">go</a>`), "go (https://example.com/?q=a&r=b)");
  assert.equal(htmlToText(`<a href="https://example.com/x"><img src="logo.png"></a>`), "https://example.com/x");
});

test("htmlToText decodes basic entities once", () => {
  assert.equal(
    htmlToText("<p>Tom &amp; Jerry &lt;3 &quot;cheese&quot; &#39;n&#x27; more&nbsp;stuff &hellip; &copy; &unknown; &amp;lt;</p>"),
    `Tom & Jerry <3 "cheese" 'n' more stuff \u2026 \u00a9 &unknown; &lt;`,
  );
  assert.equal(decodeEntities("&#128075; &#x1F44B; &#0; &#xD800;"), "\u{1F44B} \u{1F44B} \ufffd \ufffd");
});

test("htmlToText renders lists and tables readably", () => {
  const html = "<p>Points:</p><ul><li>one</li><li>two <b>bold</b></li></ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>";
  assert.equal(htmlToText(html), "Points:\n\n- one\n- two bold\n\na b\nc d");
});

test("htmlToText keeps <pre> content verbatim", () => {
  const html = "<p>Code:</p><pre>  line 1\n    line 2 &lt;x&gt;</pre><p>after</p>";
  assert.equal(htmlToText(html), "Code:\n\n  line 1\n    line 2 <x>\n\nafter");
});

test("htmlToText of plain text and empty input", () => {
  assert.equal(htmlToText("just text, a < b and c > d"), "just text, a < b and c > d");
  assert.equal(htmlToText(""), "");
  assert.equal(htmlToText("   <p> </p>  "), "");
});
