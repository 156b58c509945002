import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { skipWithoutSystemServer } from "@outreach/testing";
import { chromiumMissing, launchChromium, watchPage } from "./browser.js";
import { startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(() => api?.close());

/** Every URL the page's HTML names (src, href, the document's data-spec-url), resolved against where the page was served. */
function urlsIn(html: string, pageUrl: string): URL[] {
  return [...html.matchAll(/\b(?:src|href|data-spec-url)="([^"]*)"/g)].map((match) => new URL(match[1]!, pageUrl));
}

/** "METHOD path" and the name Redoc shows (summary, else operationId) of every operation and webhook in the document. */
function documentedOperations(document: any): Array<{ operation: string; name: string }> {
  const list: Array<{ operation: string; name: string }> = [];
  for (const section of ["paths", "webhooks"] as const) {
    for (const [path, item] of Object.entries<Record<string, any>>(document[section] ?? {})) {
      for (const method of ["get", "put", "post", "delete", "options", "head", "patch", "trace"]) {
        const operation = item[method];
        if (operation) list.push({ operation: `${section} ${method.toUpperCase()} ${path}`, name: operation.summary ?? operation.operationId });
      }
    }
  }
  return list;
}

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

test("GET /docs is an HTML page whose every URL is on the API's own origin, with a self-only CSP", async () => {
  const res = await fetch(`${api.baseUrl}/docs`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  for (const source of csp.split(";").flatMap((directive) => directive.trim().split(/\s+/).slice(1))) {
    assert.ok(["'self'", "'none'", "'unsafe-inline'", "data:", "blob:"].includes(source), `CSP source ${source}`);
  }

  const html = await res.text();
  const urls = urlsIn(html, `${api.baseUrl}/docs`);
  for (const url of urls) assert.ok(url.protocol === "data:" || url.origin === api.baseUrl, `outside URL ${url.href}`);
  const paths = urls.filter((url) => url.protocol !== "data:").map((url) => url.pathname);
  assert.ok(paths.includes("/openapi.json"), "the page renders /openapi.json");
  assert.ok(paths.includes("/docs/errors"), "the page links the error pages");
  assert.ok(paths.includes("/docs/assets/redoc.standalone.js"), "the page loads Redoc from the API");

  for (const url of urls.filter((url) => url.protocol !== "data:")) {
    const target = await fetch(url);
    assert.equal(target.status, 200, url.href);
    await target.arrayBuffer();
  }
});

test("the page's URLs are relative: they stay under a path prefix and resolve the same at /docs/", async () => {
  const html = await (await fetch(`${api.baseUrl}/docs`)).text();
  for (const url of urlsIn(html, "https://example.test/outreach/docs")) {
    assert.ok(url.protocol === "data:" || url.href.startsWith("https://example.test/outreach/"), `${url.href} leaves the prefix`);
  }
  const withSlash = await fetch(`${api.baseUrl}/docs/`);
  assert.equal(withSlash.status, 200);
  const resolved = (text: string, pageUrl: string) => urlsIn(text, pageUrl).map((url) => url.href);
  assert.deepEqual(resolved(await withSlash.text(), `${api.baseUrl}/docs/`), resolved(html, `${api.baseUrl}/docs`));
});

test("Redoc's bundle and the page's script are served by the API as JavaScript, cached for good under their digest", async () => {
  const html = await (await fetch(`${api.baseUrl}/docs`)).text();
  const scripts = urlsIn(html, `${api.baseUrl}/docs`).filter((url) => url.pathname.startsWith("/docs/assets/"));
  assert.deepEqual(scripts.map((url) => url.pathname).sort(), ["/docs/assets/docs-page.js", "/docs/assets/redoc.standalone.js"]);
  for (const url of scripts) {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const body = await res.text();
    assert.ok(!body.includes("cdn.redoc.ly"), `${url.pathname} loads nothing from outside`);
    if (url.pathname.endsWith("redoc.standalone.js")) assert.ok(body.length > 1_000_000 && body.includes("Redoc"), "the whole standalone bundle");
  }

  const unversioned = await fetch(`${api.baseUrl}/docs/assets/redoc.standalone.js`);
  assert.equal(unversioned.status, 200);
  assert.equal(unversioned.headers.get("cache-control"), "public, max-age=300");
  await unversioned.arrayBuffer();

  const unknown = await fetch(`${api.baseUrl}/docs/assets/nope.js`);
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { code: string }).code, "not_found");
});

test("the error pages stay where the error envelope's type points", async () => {
  const index = await fetch(`${api.baseUrl}/docs/errors`);
  assert.equal(index.status, 200);
  assert.match(await index.text(), /href="errors\/not_found"/);
  const one = await fetch(`${api.baseUrl}/docs/errors/not_found`);
  assert.equal(one.status, 200);
  assert.match(await one.text(), /<code>not_found<\/code>/);
});

test("in Chromium, the page lists every operation of /openapi.json, requests only the API's origin and logs no error", { skip: skipWithoutSystemServer("Chromium", chromiumMissing) }, async () => {
  const document = await (await fetch(`${api.baseUrl}/openapi.json`)).json();
  const operations = documentedOperations(document);
  assert.ok(operations.length > 0, "the document has operations");

  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // Redoc renders the whole document at once; on a busy 2-core machine that can take a while.
    page.setDefaultTimeout(90_000);
    const { requested, errors } = watchPage(page);

    await page.goto(`${api.baseUrl}/docs`);
    await page.locator("#redoc .api-content h1").first().waitFor();

    const headings = (await page.locator("#redoc .api-content h2").allTextContents()).map(normalize);
    for (const { operation, name } of operations) {
      assert.ok(
        headings.some((heading) => heading.includes(normalize(name))),
        `${operation} (${name}) is not on the page`,
      );
    }

    assert.deepEqual(errors, [], "console errors while rendering");

    // The search index runs in a worker made from a blob: URL, which the CSP must allow.
    const first = operations[0]!.name;
    await page.getByRole("textbox", { name: "Search" }).fill(first);
    await page.locator('[data-role="search:results"] li', { hasText: first }).first().waitFor();

    assert.deepEqual(errors, [], "console errors while searching");
    assert.ok(requested.includes(`${api.baseUrl}/openapi.json`), `the page fetched the document: ${requested.join(", ")}`);
    for (const url of requested) {
      const parsed = new URL(url);
      assert.ok(parsed.protocol === "data:" || parsed.origin === api.baseUrl, `request to ${url}`);
    }

    const errorsLink = page.locator("header a", { hasText: "Error codes" });
    assert.equal(new URL((await errorsLink.getAttribute("href"))!, page.url()).href, `${api.baseUrl}/docs/errors`);
    await Promise.all([page.waitForURL(`${api.baseUrl}/docs/errors`), errorsLink.click()]);
    assert.equal(await page.locator("h1").textContent(), "Errors");
  } finally {
    await browser.close();
  }
});
