import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// The root package.json carries the release's semantic version, and
// CHANGELOG.md (Keep a Changelog) has a section for it.
const root = new URL("../", import.meta.url);
const version: unknown = JSON.parse(readFileSync(new URL("package.json", root), "utf8")).version;
const changelog = readFileSync(new URL("CHANGELOG.md", root), "utf8");

test("the root package.json carries a semantic version", () => {
  assert.equal(typeof version, "string");
  assert.match(version as string, /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/);
});

test("CHANGELOG.md follows Keep a Changelog and records this version first", () => {
  const releases = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
  assert.equal(releases[0], "Unreleased");
  assert.equal(releases[1], version, "the newest release is package.json's version");
  assert.ok(releases.includes("1.0.0") && releases.includes("1.1.0"), "the two earlier releases");
  assert.match(changelog, new RegExp(`^## \\[${(version as string).replace(/\./g, "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"), "the release is dated");
  const sections = new Set([...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]));
  for (const section of sections) assert.ok(["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"].includes(section!), section);
  for (const type of ["enrollment.clicked", "webhook.test", "variant_id"]) assert.ok(changelog.includes(type), `${type} is recorded`);
});
