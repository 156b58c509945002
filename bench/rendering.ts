// Rendering benchmark: how long one step takes to render (merge tags, HTML body,
// plain-text alternative: renderMessage, what the preview and the sender run) for
// worst-case bodies at the size cap (512 KiB), in this process, CPU only. The
// event loop is blocked for that long, so it must stay at a few milliseconds.
//   node --import tsx bench/rendering.ts [runs=20]
// The first render in the process is timed separately (code not yet optimised).
// Also times bodies the API refuses (more merge tags than allowed), to show why.
// Writes bench/results/rendering.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { countMergeTags, renderMessage, type MergeContact } from "@outreach/core";
import { REPO_ROOT } from "@outreach/testing";

const runs = Number(process.argv[2] ?? 20);
const loadAtStart = loadavg().map((l) => Math.round(l * 100) / 100);
const MAX_BODY_HTML = 524_288;
const MAX_SUBJECT = 998;
const MAX_MERGE_TAGS = 100;

/** `unit` repeated to just under the cap, then `tail`; a flat string, like one read from the database. */
function fill(unit: string, tail = ""): string {
  return flat(unit.repeat(Math.floor((MAX_BODY_HTML - tail.length) / unit.length)) + tail);
}

/** repeat() and + build strings as trees of pieces, slower to read than the flat strings a query returns. */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

const newsletter = `<table width="100%"><tr><td><h1>News&nbsp;from Acme</h1><p>Hi {{first_name}},</p>
<p>We&rsquo;ve shipped <b>three</b> things:</p><ul><li>Faster exports</li><li>A new <a href="https://acme.example/api?v=2&amp;lang=en">API</a></li></ul>
<!-- campaign 42 --><p><a href="https://acme.example/news" class="btn">Read more</a></p><div>&nbsp;</div></td></tr></table>\n`;
// A body at the cap with exactly the allowed number of merge tags.
const mergeTagged = "<p>{{first_name}} {{company}}</p>".repeat(MAX_MERGE_TAGS / 2);

const bodies: Record<string, string> = {
  "<style> x N (unclosed)": fill("<style>"),
  "<script> x N (unclosed)": fill("<script>"),
  "<title> x N (unclosed)": fill("<title>"),
  "<a> x N (unclosed)": fill("<a>"),
  "<a href=x> x N (unclosed)": fill("<a href=x>"),
  "<a href=x>y x N, then </a>": fill("<a href=x>y", "</a>"),
  "<a href=https://e.example>x</a> x N": fill("<a href=https://e.example>x</a>"),
  "<!-- x N (unclosed)": fill("<!--"),
  "text<!-- x N": fill("text<!--"),
  "<pre> x N (unclosed)": fill("<pre>"),
  "<pre> x N, then </pre>": fill("<pre>", "</pre>"),
  "<pre> + spaces + </pre>": flat(`<pre>${" ".repeat(MAX_BODY_HTML - 12)}</pre>`),
  "<a x N (no >)": fill("<a"),
  "<p x N (no >)": fill("<p"),
  "</ x N": fill("</"),
  '<a title=" x N': fill('<a title="'),
  "< x N": fill("<"),
  "<div> x N/2 + </div> x N/2 (deep nesting)": flat(`${"<div>".repeat(Math.floor(MAX_BODY_HTML / 11))}x${"</div>".repeat(Math.floor(MAX_BODY_HTML / 11))}`),
  "<li> x N": fill("<li>"),
  "<br> x N": fill("<br>"),
  "<td>a</td> x N": fill("<td>a</td>"),
  "&amp; x N": fill("&amp;"),
  "&#x1F44B; x N": fill("&#x1F44B;"),
  "&nbsp;<b></b> x N": fill("&nbsp;<b></b>"),
  "plain text": fill("Lorem ipsum dolor sit amet. "),
  "newsletter x N (1 merge tag each)": fill(newsletter.replace("{{first_name}}", "there")) + "{{first_name}}",
  [`${MAX_MERGE_TAGS} merge tags + filler`]: flat(mergeTagged + fill("<b>x</b>", "").slice(mergeTagged.length)),
};

const ordinary: MergeContact = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", company: "Analytical Engines" };
// Contact fields are at most 200 characters (email 254); quotes are escaped to 6 characters each.
const worstContact: MergeContact = { firstName: '"'.repeat(200), lastName: "&".repeat(200), email: `${"a".repeat(64)}@${"d".repeat(185)}.com`, company: '"'.repeat(200) };

function time(body: string, contact: MergeContact, count: number) {
  const template = { subject: "{{first_name}}, a subject".padEnd(MAX_SUBJECT, "."), bodyHtml: body };
  const samples: number[] = [];
  let rendered = renderMessage(template, contact);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    rendered = renderMessage(template, contact);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 100) / 100;
  return {
    body_chars: body.length,
    merge_tags: countMergeTags(body),
    html_chars: rendered.html.length,
    text_chars: rendered.text.length,
    median_ms: ms(samples[Math.floor(samples.length / 2)]!),
    max_ms: ms(samples[samples.length - 1]!),
  };
}

for (const [name, body] of Object.entries(bodies)) {
  if (body.length > MAX_BODY_HTML) throw new Error(`${name}: ${body.length} characters is over the cap`);
  if (countMergeTags(body) > MAX_MERGE_TAGS) throw new Error(`${name}: more merge tags than allowed`);
}

// The first render in a fresh process, before the code is optimised.
const coldStarted = performance.now();
renderMessage({ subject: "x", bodyHtml: bodies["<a> x N (unclosed)"]! }, ordinary);
const coldMs = Math.round((performance.now() - coldStarted) * 100) / 100;

const worstCase: Record<string, ReturnType<typeof time>> = {};
for (const [name, body] of Object.entries(bodies)) worstCase[name] = time(body, ordinary, runs);
worstCase[`${MAX_MERGE_TAGS} merge tags + filler, longest contact values`] = time(bodies[`${MAX_MERGE_TAGS} merge tags + filler`]!, worstContact, runs);

// A realistic email, once the code is optimised as in a running server.
const typical = time(flat(newsletter.repeat(20)), ordinary, 200);

// What the merge-tag limit prevents: every tag expands to a contact value.
const refused = {
  "{{first_name}} x N, ordinary contact": time(fill("{{first_name}}"), ordinary, 3),
  "{{first_name}} x N, longest contact values": time(fill("{{first_name}}"), worstContact, 2),
};

const byMedian = Object.entries(worstCase).sort((a, b) => b[1].median_ms - a[1].median_ms)[0]!;
const byMax = Object.entries(worstCase).sort((a, b) => b[1].max_ms - a[1].max_ms)[0]!;
const git = (...args: string[]) => {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
};
const report = {
  date: new Date().toISOString(),
  machine: {
    commit: git("rev-parse", "--short", "HEAD"),
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    loadavg_at_start: loadAtStart,
  },
  what: `renderMessage (merge tags, HTML, plain text) of one step: body at most ${MAX_BODY_HTML} characters with at most ${MAX_MERGE_TAGS} merge tags, subject ${MAX_SUBJECT} characters; median and max of ${runs} runs after one warm-up run`,
  first_render_in_process_ms: coldMs,
  typical_email_7kb_200_runs: typical,
  slowest: { by_median: { body: byMedian[0], median_ms: byMedian[1].median_ms }, by_max: { body: byMax[0], max_ms: byMax[1].max_ms } },
  worst_case_bodies: worstCase,
  refused_by_validation_more_than_100_merge_tags: refused,
};
mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
writeFileSync(join(REPO_ROOT, "bench/results/rendering.json"), JSON.stringify(report, null, 2) + "\n");
console.log(JSON.stringify(report, null, 2));
