// The benchmarks' settings: where Redis is, the key the apps and the seeded
// credentials share, the apps' public URL, and positional arguments.
import { REPO_ROOT } from "@outreach/testing";

export { REPO_ROOT };

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** The key the apps and the seeded credentials share (the password is encrypted with it). */
export const ENCRYPTION_KEY = Buffer.alloc(32, 7);
export const PUBLIC_BASE_URL = "http://outreach.bench";

/** A number from argv (positional), or the default. */
export function argNumber(index: number, fallback: number): number {
  const raw = process.argv[2 + index];
  if (raw === undefined || raw === "" || raw === "-") return fallback;
  const value = Number(raw.replace(/_/g, ""));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`argument ${index + 1} must be a positive number, got ${raw}`);
  return value;
}
