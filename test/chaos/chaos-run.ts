import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { createDbClient, type Db } from "@outreach/db";
import { normalizeMessageId } from "@outreach/domain";
import { LOOPBACK_MAIL_ENV, seededRandom } from "@outreach/testing";
import type { IdempotentUse } from "./api-traffic.js";
import { FaultDriver, type FaultRecord } from "./faults.js";
import { startInfrastructure } from "./infra.js";
import { dispatchAccount, idempotentTraffic, INBOX_PASSWORD, ReplyWriter, setUpAccount, type ChaosAccount } from "./load.js";
import { hashedChance, startPeers, type Peers } from "./peers.js";
import type { ChaosProfile } from "./profiles.js";
import { redeliverSendJobs } from "./redeliver.js";
import { retried } from "./retry.js";
import { startTopology, type Topology } from "./topology.js";
import { verifyRun, type Verification } from "./verify.js";

const WEBHOOK_TIMEOUT_MS = 1_500;

export interface ChaosResult extends Verification {
  profile: string;
  seed: number;
  ok: boolean;
  wallMs: number;
  phasesMs: { start: number; setup: number; faults: number; quiescence: number };
  quiesced: boolean;
  replicas: ChaosProfile["replicas"];
  load: ChaosProfile["load"];
  faults: FaultRecord[];
  heal: Record<string, { count: number; readyMsMedian: number | null; readyMsMax: number | null; progressMsMedian: number | null; progressMsMax: number | null }>;
}

/** the apps' QUEUE_PREFIX on the run's private Redis */
const QUEUE_PREFIX = "chaos";
/** how many sends a redelivery fault gives a second job */
const REDELIVERED_PER_FAULT = 10;

function appEnv(urls: { DATABASE_URL: string; REDIS_URL: string }): Record<string, string> {
  return {
    ...urls,
    ...LOOPBACK_MAIL_ENV,
    QUEUE_PREFIX,
    PUBLIC_BASE_URL: "http://outreach.test",
    LOG_LEVEL: "warn",
    DATABASE_POOL_SIZE: "5",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    WEBHOOK_RETRY_BASE_MS: "300",
    IMAP_POLL_INTERVAL_SECONDS: "2",
    IMAP_LOGIN_RETRY_SECONDS: "2",
    SMTP_SOCKET_TIMEOUT_MS: "10000",
    SIGNUP_LIMIT_PER_HOUR: "100000",
    RATE_LIMIT_PER_MINUTE: "100000",
    AUTH_FAILURE_LIMIT_PER_MINUTE: "100000",
  };
}

/** Nothing left to do: no send due or under way, every planted reply recorded, every event fanned out and delivered. */
async function quiescent(db: Db, accounts: ChaosAccount[], writer: ReplyWriter): Promise<boolean> {
  const accountIds = accounts.map((a) => a.accountId);
  const planted = writer.planted.length;
  await writer.tick();
  if (writer.planted.length !== planted) return false;
  const [open, detected, undispatched, pending] = await Promise.all([
    db.stepSend.count({ where: { accountId: { in: accountIds }, state: { in: ["scheduled", "queued", "sending"] } } }),
    db.inboundMessage.count({ where: { messageId: { in: writer.planted.map((r) => normalizeMessageId(r.messageId)!) } } }),
    db.event.count({ where: { accountId: { in: accountIds }, dispatchedAt: null } }),
    db.webhookDelivery.count({ where: { accountId: { in: accountIds }, state: "pending" } }),
  ]);
  return open === 0 && detected >= writer.planted.length && undispatched === 0 && pending === 0;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** From each fault's end: the first email the SMTP server received and the first webhook answered 2xx after it. */
function fillProgress(faults: FaultRecord[], peers: Peers, startedAt: number): void {
  const progress = [...peers.smtp.messages.map((m) => m.receivedAt.getTime()), ...peers.deliveredAt].sort((a, b) => a - b);
  for (const fault of faults) {
    const end = startedAt + fault.at + fault.durationMs;
    const next = progress.find((t) => t >= end);
    fault.progressAfterMs = next === undefined ? null : next - end;
  }
}

function healSummary(faults: FaultRecord[]): ChaosResult["heal"] {
  const summary: ChaosResult["heal"] = {};
  for (const kind of new Set(faults.map((f) => f.kind))) {
    const of = faults.filter((f) => f.kind === kind);
    const ready = of.map((f) => f.readyAfterMs).filter((v): v is number => v !== null);
    const progress = of.map((f) => f.progressAfterMs).filter((v): v is number => typeof v === "number");
    summary[kind] = {
      count: of.length,
      readyMsMedian: median(ready),
      readyMsMax: ready.length ? Math.max(...ready) : null,
      progressMsMedian: median(progress),
      progressMsMax: progress.length ? Math.max(...progress) : null,
    };
  }
  return summary;
}

/**
 * One chaos run: private PostgreSQL and Redis behind proxies, the peers, every app as its own processes, the
 * accounts set up through the API; then the load and the faults together, a wait for quiescence, and the
 * claims checked from the peers' records.
 */
export async function runChaos(profile: ChaosProfile, seed: number, log: (line: string) => void = console.log): Promise<ChaosResult> {
  const startedAt = Date.now();
  const random = seededRandom(seed);
  const runId = randomBytes(3).toString("hex");
  log(`chaos ${profile.name}: seed ${seed} (CHAOS_SEED=${seed} replays the same faults and answers)`);
  const infra = await startInfrastructure();
  const cleanups: Array<() => Promise<unknown>> = [() => infra.stop()];
  let topology: Topology | undefined;
  try {
    const peers = await startPeers(seed, { receivers: 2, webhookTimeoutMs: WEBHOOK_TIMEOUT_MS });
    cleanups.unshift(() => peers.close());
    const db = createDbClient(infra.postgres.url, { poolMax: 4 });
    cleanups.unshift(() => db.$disconnect());
    const inboxes = Array.from({ length: profile.load.accounts }, (_, a) => Array.from({ length: profile.load.inboxesPerAccount }, (_, k) => `inbox${k}-a${a}-${runId}@sender.test`)).flat();
    await peers.dovecot.addUsers(inboxes.map((email) => ({ email, password: INBOX_PASSWORD })));
    topology = await startTopology(profile.replicas, appEnv(infra.appUrls));
    const started = Date.now();
    log(`${topology.slots.length} processes ready in ${started - startedAt} ms`);

    const accounts = await Promise.all(Array.from({ length: profile.load.accounts }, (_, i) => setUpAccount(topology!, db, peers, profile.load, runId, i)));
    const setUp = Date.now();
    log(`${accounts.length} accounts set up through the API in ${setUp - started} ms`);

    const writer = new ReplyWriter(db, peers, (email) => hashedChance(seed, "replies", email) < profile.load.replyShare);
    const uses: IdempotentUse[] = [];
    const accountIds = accounts.map((a) => a.accountId);
    const redeliver = () => redeliverSendJobs(db, `redis://127.0.0.1:${infra.redis.port}`, QUEUE_PREFIX, accountIds, REDELIVERED_PER_FAULT);
    const driver = new FaultDriver(random, topology, infra, profile.faults, startedAt, log, redeliver);
    let faultsDone = false;
    const faultPhase = profile.faults.sequence ? profile.faults.sequence.length * 5_000 : profile.faults.durationMs;
    const dispatching = (async () => {
      for (const account of accounts) {
        await dispatchAccount(topology!, db, account);
        await delay((faultPhase * profile.dispatchSpread) / accounts.length);
      }
    })();
    const replying = (async () => {
      while (!faultsDone) {
        await writer.tick().catch(() => undefined);
        await delay(500);
      }
    })();
    const traffic = idempotentTraffic(topology, accounts, runId, () => faultsDone, uses);
    await driver.run(() => false);
    await dispatching;
    faultsDone = true;
    await Promise.all([replying, traffic]);
    const faulted = Date.now();
    log(`${driver.records.length} faults in ${faulted - setUp} ms; waiting for quiescence`);

    let quiesced = false;
    const limit = Date.now() + profile.quiescenceLimitMs;
    while (Date.now() < limit && !quiesced) {
      quiesced = (await quiescent(db, accounts, writer).catch(() => false)) && (await delay(1_000).then(() => quiescent(db, accounts, writer).catch(() => false)));
      if (!quiesced) await delay(500);
    }
    const settled = Date.now();
    log(quiesced ? `quiescent after ${settled - faulted} ms` : `not quiescent after ${settled - faulted} ms: verifying what there is`);

    fillProgress(driver.records, peers, startedAt);
    const verification = await retried(() => verifyRun(db, peers, accounts, writer.planted, uses, driver.records));
    const ok = quiesced && verification.claims.every((c) => c.ok);
    if (!ok) {
      const logs = join(tmpdir(), `outreach-chaos-logs-${runId}`);
      topology.writeLogs(logs);
      log(`the processes' whole output is in ${logs}`);
      log(topology.outputs());
      log(`live processes (liveness keys): ${(await infra.redis.cli(["--scan", "--pattern", "*alive*"]).catch((err) => String(err))).trim().split("\n").join(", ")}`);
    }
    return {
      profile: profile.name,
      seed,
      ok,
      wallMs: Date.now() - startedAt,
      phasesMs: { start: started - startedAt, setup: setUp - started, faults: faulted - setUp, quiescence: settled - faulted },
      quiesced,
      replicas: profile.replicas,
      load: profile.load,
      ...verification,
      faults: driver.records,
      heal: healSummary(driver.records),
    };
  } finally {
    await topology?.close();
    for (const cleanup of cleanups) await cleanup().catch((err) => log(`cleanup failed: ${(err as Error).message}`));
  }
}

/** The claims as lines: each one's verdict, and what was wrong with it. */
export function describeClaims(result: Pick<ChaosResult, "claims" | "quiesced">): string {
  const lines = result.claims.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.ok ? "" : ` (${c.problemCount})\n${c.problems.map((p) => `       ${p}`).join("\n")}`}`);
  if (!result.quiesced) lines.unshift("FAIL the system reached quiescence within the limit");
  return lines.join("\n");
}
