// Types of scripts/lint/config.mjs, for the tests that import it.
import type { Linter } from "eslint";

export const ROOT: string;
export const ALLOWLIST_FILE: string;
export const RAW_SQL_RULE: string;
export const RAW_SQL_ALLOWED: string[];
export const GLOB_CHARS: RegExp;
export function parseAllowlist(text: string): string[];
export function readAllowlist(file?: string): string[];
export function formatAllowlist(paths: string[]): string;
export function buildConfig(allowlist?: string[]): Linter.Config[];
