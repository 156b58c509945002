import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest prisma/migrations above `start`: the repository's from packages/db/src, and the
 * image's (/app/prisma/migrations) from a bundle anywhere under /app (apps/<app>/dist, tools,
 * chunks), which keeps the repository's layout.
 */
export function findMigrationsDir(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const here = dirname(fileURLToPath(import.meta.url));

/** prisma/migrations of the repository (or of the image); MIGRATIONS_DIR overrides it. */
export const MIGRATIONS_DIR = process.env.MIGRATIONS_DIR ?? findMigrationsDir(here) ?? resolve(here, "../../../prisma/migrations");
