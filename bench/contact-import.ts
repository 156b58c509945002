// Contact-import benchmark: POST /contact_imports with 100,000 contacts in one
// request, through the real HTTP API (its own process, NODE_ENV=production) into a
// throwaway database. Three imports: a 1,000-row warm-up, 100,000 new contacts,
// then the same 100,000 again (every row merges into an existing contact, half of
// them with a changed company).
//   node --import tsx bench/contact-import.ts [rows=100000]
// Writes bench/results/contact-import.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { createTestDatabase, REPO_ROOT } from "@outreach/testing";
import { startBenchApi } from "./lib/apps.js";
import { procStatusMb } from "./lib/cpu.js";

const rows = Number(process.argv[2] ?? 100_000);

function contacts(count: number, prefix: string, company: (i: number) => string) {
  return Array.from({ length: count }, (_, i) => ({ email: `${prefix}-${i}@example${i % 97}.com`, first_name: `First${i}`, last_name: `Last${i % 5000}`, company: company(i) }));
}

const database = await createTestDatabase();
const api = await startBenchApi(database.url);
try {
  const signup: any = await (await fetch(`${api.baseUrl}/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "bench@example.com" }) })).json();
  const headers = { authorization: `Bearer ${signup.api_key.plaintext as string}`, "content-type": "application/json" };

  async function timedImport(label: string, list: unknown[]) {
    const body = JSON.stringify({ contact_import: { name: label, contacts: list } });
    const started = performance.now();
    const res = await fetch(`${api.baseUrl}/contact_imports`, { method: "POST", headers, body });
    const result: any = await res.json();
    const ms = Math.round(performance.now() - started);
    if (res.status !== 201) throw new Error(`${label}: ${res.status} ${JSON.stringify(result)}`);
    return {
      rows: list.length,
      body_mb: Math.round((Buffer.byteLength(body) / 1024 / 1024) * 10) / 10,
      ms,
      rows_per_second: Math.round(list.length / (ms / 1000)),
      counts: { imported: result.imported_count, duplicate: result.duplicate_count, invalid: result.invalid_count },
    };
  }

  const rssAtStartMb = procStatusMb(api.child.pid, "VmRSS");
  await timedImport(
    "warm-up",
    contacts(1_000, "warmup", () => "Warm"),
  );
  const fresh = await timedImport(
    "fresh",
    contacts(rows, "person", (i) => `Company ${i % 1000}`),
  );
  const merge = await timedImport(
    "merge",
    contacts(rows, "person", (i) => (i % 2 === 0 ? `Renamed ${i % 1000}` : `Company ${i % 1000}`)),
  );
  const count = await database.db.contact.count();
  if (count !== rows + 1_000) throw new Error(`expected ${rows + 1_000} contacts, found ${count}`);

  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, memory_gb: Math.round(totalmem() / 1024 ** 3), node: process.version },
    what: "POST /contact_imports through HTTP to the API process (NODE_ENV=production); time from request start to parsed response",
    new_contacts: fresh,
    reimport_all_duplicates: merge,
    api_process_rss_mb: { at_start: rssAtStartMb, peak: procStatusMb(api.child.pid, "VmHWM") },
    contacts_in_database: count,
  };
  mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(REPO_ROOT, "bench/results/contact-import.json"), JSON.stringify(report, null, 2) + "\n");
  console.log(JSON.stringify(report, null, 2));
} finally {
  await api.stop();
  await database.drop();
}
