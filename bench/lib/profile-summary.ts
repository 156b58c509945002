// Summarizes .cpuprofile files (node --cpu-prof): self time by function and by
// package, so a benchmark's bottleneck can be named from the profile.
//   node --import tsx bench/lib/profile-summary.ts <file.cpuprofile>... [--top=25]
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const top = Number(process.argv.find((a) => a.startsWith("--top="))?.slice(6) ?? 25);
const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));

function packageOf(url: string): string {
  if (!url) return "(native/vm)";
  const pnpm = url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pnpm) return pnpm[1]!;
  const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1]!;
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  const ours = url.match(/\/(apps\/[^/]+|packages\/[^/]+)\//);
  return ours ? ours[1]! : url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = profile.endTime - profile.startTime;
  let idleUs = 0;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName || "(anonymous)";
    if (name === "(idle)") {
      idleUs += us;
      continue;
    }
    const key = `${name} ${node.callFrame.url.replace(/^.*node_modules\/\.pnpm\//, "").replace(/^file:\/\/\/work\/main\//, "")}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const pkg = ["(garbage collector)", "(program)"].includes(name) ? name : packageOf(node.callFrame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const fmt = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busyUs).toFixed(1).padStart(5)} %`;
  console.log(`\n${file}\n  wall ${(totalUs / 1e6).toFixed(1)} s, busy ${(busyUs / 1e6).toFixed(1)} s (${((100 * busyUs) / totalUs).toFixed(0)} % of wall)`);
  console.log("  self time by package:");
  for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${fmt(us)}  ${pkg}`);
  console.log("  self time by function:");
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${fmt(us)}  ${fn}`);
}
