// What one watched inbox costs the imap-poller in memory, by transport and by what the server
// offers: `inboxes` IMAP sessions to one Dovecot in a fresh process each (bench/lib/
// imap-watchers-memory.ts), RSS and heap over the process before them, per session.
//   node --import tsx bench/imap-memory.ts [inboxes=500]
// Runs: the poller's InboxWatcher (store stubbed) on plain IMAP, on implicit TLS, and on
// implicit TLS to a server offering COMPRESS=DEFLATE (as Gmail does; Dovecot's imap_zlib);
// beside it bare imapflow clients in IDLE on that server, COMPRESS declined and taken: what
// compression would cost each inbox. Writes bench/results/imap-memory.json.
import { startDovecot } from "@outreach/testing";
import { runChild } from "./lib/apps.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { argNumber } from "./lib/settings.js";
import { loadavg } from "node:os";

const inboxes = argNumber(0, 500);
const PASSWORD = "imap-secret";
const OFFER_COMPRESS = `mail_plugins = $mail_plugins zlib
protocol imap {
  mail_plugins = $mail_plugins imap_zlib
}
`;

interface ChildResult {
  kind: string;
  ready: number;
  ready_ms: number;
  per_session_kb: { rss: number; heap_used: number; external: number; malloced: number };
  process_mb: Record<string, number>;
}

async function measure(server: { offersCompress: boolean }, runs: Array<{ name: string; kind: string; tls: boolean }>) {
  const dovecot = await startDovecot({ tls: true, extraConfig: server.offersCompress ? OFFER_COMPRESS : "" });
  const results: Record<string, ChildResult> = {};
  try {
    for (const [i, run] of runs.entries()) {
      const prefix = `mem${i}-`;
      await dovecot.addUsers(Array.from({ length: inboxes }, (_, j) => ({ email: `${prefix}${j + 1}@sender.bench`, password: PASSWORD })));
      const port = run.tls ? dovecot.tlsPort! : dovecot.port;
      results[run.name] = await runChild<ChildResult>("imap-watchers-memory.ts", [run.kind, dovecot.host, String(port), String(run.tls), String(inboxes), PASSWORD, prefix], ["--expose-gc"]);
      log(`${run.name}: ${JSON.stringify(results[run.name])}`);
    }
  } finally {
    await dovecot.close();
  }
  return results;
}

const loadavg_at_start = loadavg().map((l) => Math.round(l * 100) / 100);
const runs = {
  ...(await measure({ offersCompress: false }, [
    { name: "watcher_plain", kind: "watcher", tls: false },
    { name: "watcher_tls", kind: "watcher", tls: true },
  ])),
  ...(await measure({ offersCompress: true }, [
    { name: "watcher_tls_server_offers_compress", kind: "watcher", tls: true },
    { name: "imapflow_tls_compress_declined", kind: "imapflow", tls: true },
    { name: "imapflow_tls_compress_taken", kind: "imapflow-compress", tls: true },
  ])),
};
const kb = (name: string) => runs[name]?.per_session_kb.rss;
writeResult("imap-memory", {
  date: new Date().toISOString(),
  machine: { ...machineInfo(), loadavg_at_start, loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
  settings: { inboxes },
  what: "memory per IMAP session in one process: (RSS, heap used, external, malloc after the sessions are idle - before any), over `inboxes` sessions to a loopback Dovecot, each run in a fresh process, after a forced GC",
  runs,
  figures: [
    { figure: `RSS per watched inbox (KB), plain IMAP, ${inboxes} inboxes`, value: kb("watcher_plain") },
    { figure: `RSS per watched inbox (KB), implicit TLS, ${inboxes} inboxes`, value: kb("watcher_tls") },
    { figure: `RSS per watched inbox (KB), TLS, server offering COMPRESS (declined), ${inboxes} inboxes`, value: kb("watcher_tls_server_offers_compress") },
    { figure: `RSS per imapflow session (KB), TLS, COMPRESS taken, ${inboxes} sessions`, value: kb("imapflow_tls_compress_taken") },
  ],
});
process.exit(0);
