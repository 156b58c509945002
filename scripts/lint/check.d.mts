// Types of scripts/lint/check.mjs, for the tests that import it.
import type { ESLint } from "eslint";

export function repoPath(filePath: string, root?: string): string;
export function rawSqlFiles(results: ESLint.LintResult[], root?: string): string[];
export function checkAllowlist(results: ESLint.LintResult[], allowlist: string[], root?: string): { problems: string[]; keep: string[] };
export function lintRepository(options?: { cache?: boolean; concurrency?: number | "auto" | "off" }): Promise<{ eslint: ESLint; results: ESLint.LintResult[] }>;
