import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@outreach/testing";
import { describeClaims, runChaos } from "./chaos-run.js";
import { FULL_RUN, SHORT_RUN } from "./profiles.js";

// npm run chaos: the full run, recorded in bench/results/chaos.json. CHAOS_SEED replays a run's faults and
// answers; CHAOS_PROFILE=short runs the short version's profile (printed, not recorded).
// Ctrl-C: exit through the exit handlers, which stop the private servers and the processes
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
const profile = process.env.CHAOS_PROFILE === "short" ? SHORT_RUN : FULL_RUN;
const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const result = await runChaos(profile, seed);
console.log(describeClaims(result));
console.log(JSON.stringify({ phasesMs: result.phasesMs, counts: result.counts, heal: result.heal }, null, 2));
if (profile === FULL_RUN) {
  const out = join(REPO_ROOT, "bench", "results", "chaos.json");
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
  console.log(`written to ${out}`);
}
console.log(result.ok ? "PASSED" : "FAILED");
process.exit(result.ok ? 0 : 1);
