// Runs ESLint over the repository and checks the raw-SQL allow-list against
// the results: every listed file must still use raw SQL (else "remove <path>
// from the allow-list"), so the list only shrinks. An offender that is not
// listed is already an ESLint error (the rule is "error" there, "warn" for
// listed files).
import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ESLint } from "eslint";
import { ALLOWLIST_FILE, GLOB_CHARS, RAW_SQL_RULE, ROOT } from "./config.mjs";

/** Repository-relative path with forward slashes. */
export function repoPath(filePath, root = ROOT) {
  return relative(root, filePath).split(sep).join("/");
}

/** The files whose results carry the raw-SQL rule (errors or allow-listed warnings). */
export function rawSqlFiles(results, root = ROOT) {
  return results
    .filter((result) => result.messages.some((m) => m.ruleId === RAW_SQL_RULE))
    .map((result) => repoPath(result.filePath, root))
    .sort();
}

/**
 * Compares the allow-list with lint results of the whole repository.
 * Returns the problems (one sentence each) and the entries to keep.
 */
export function checkAllowlist(results, allowlist, root = ROOT) {
  const offending = new Set(rawSqlFiles(results, root));
  const linted = new Set(results.map((result) => repoPath(result.filePath, root)));
  const problems = [];
  const keep = [];
  const seen = new Set();
  for (const entry of allowlist) {
    const where = `remove ${entry} from the allow-list (${ALLOWLIST_FILE})`;
    if (seen.has(entry)) problems.push(`${where}: it is listed twice`);
    else if (GLOB_CHARS.test(entry)) problems.push(`${where}: entries are file paths, not patterns`);
    else if (offending.has(entry)) keep.push(entry);
    else if (!linted.has(entry) && !existsSync(join(root, entry))) problems.push(`${where}: the file no longer exists`);
    else if (!linted.has(entry)) problems.push(`${where}: the file is not linted`);
    else problems.push(`${where}: it no longer uses raw SQL outside packages/db`);
    seen.add(entry);
  }
  return { problems, keep };
}

/** ESLint over the whole repository, with a content cache under node_modules/.cache. */
export async function lintRepository({ cache = true, concurrency = "off" } = {}) {
  const eslint = new ESLint({
    cwd: ROOT,
    cache,
    cacheLocation: join(ROOT, "node_modules/.cache/eslint/"),
    cacheStrategy: "content",
    concurrency,
  });
  const results = await eslint.lintFiles(["."]);
  return { eslint, results };
}
