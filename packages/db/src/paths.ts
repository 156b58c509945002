import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** prisma/migrations of the repository (or of the image, which keeps the same layout). */
export const MIGRATIONS_DIR = process.env.MIGRATIONS_DIR ?? resolve(join(dirname(fileURLToPath(import.meta.url)), "../../../prisma/migrations"));
