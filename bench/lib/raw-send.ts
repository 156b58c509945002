// The physical limit for bench/sending.ts, run as its own process like a sender:
// `count` messages built exactly as the sender builds them (buildStepEmail), sent
// with plain nodemailer (pool: true, maxConnections: N, nodemailer's other
// defaults) to the sink, no database and no queue.
//   node --import tsx bench/lib/raw-send.ts <host> <port> <count> [maxConnections=10] [mode=pool]
// mode "pool": one pooled transport, sessions reused (nodemailer's default maxMessages 100);
// mode "new-connection": no pool, every message on a new SMTP session (connect, EHLO,
// AUTH, send, QUIT), at most maxConnections at once, as the sender's SmtpPool does when
// no other send of the same inbox is waiting.
// Prints one JSON line: { count, ms, per_second }.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildStepEmail } from "@outreach/domain";
import { REPO_ROOT } from "@outreach/testing";

interface Transport {
  sendMail(message: Record<string, unknown>): Promise<unknown>;
  close(): void;
}
const nodemailer = createRequire(join(REPO_ROOT, "apps/sender/package.json"))("nodemailer") as { createTransport(options: Record<string, unknown>): Transport };

const [host = "127.0.0.1", port = "2525", countArg = "5000", connectionsArg = "10", mode = "pool"] = process.argv.slice(2);
const count = Number(countArg);
const trackingKey = Buffer.alloc(32, 7);

function message(i: number, username: string) {
  const email = buildStepEmail({
    stepSendId: randomUUID(),
    enrollmentId: randomUUID(),
    stepPosition: 1,
    subject: "Quick question, {{first_name}}",
    bodyHtml: "<p>Hi {{first_name}},</p><p>I noticed {{company}} is hiring. We help teams like yours send fewer, better emails. Worth a short call next week?</p><p>Best,<br>Bench</p>",
    firstSubject: null,
    contact: { email: `raw-${i}@example${i % 97}.com`, firstName: `First${i}`, lastName: `Last${i}`, company: `Company ${i % 1000}` },
    from: { email: `${username}@sender.example`, name: null },
    previousMessageIds: [],
    publicBaseUrl: "http://outreach.bench",
    trackingKey,
  });
  return { ...email, envelope: { from: `${username}@sender.example`, to: [email.to] } };
}

const connections = Number(connectionsArg);
const endpoint = { host, port: Number(port), secure: false, auth: { user: "raw", pass: "secret" } };
const started = performance.now();
if (mode === "new-connection") {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const i = next++;
        const transport = nodemailer.createTransport(endpoint);
        await transport.sendMail(message(i, "raw"));
        transport.close();
      }
    }),
  );
} else {
  const transport = nodemailer.createTransport({ pool: true, maxConnections: connections, ...endpoint });
  await Promise.all(Array.from({ length: count }, (_, i) => transport.sendMail(message(i, "raw"))));
  transport.close();
}
const ms = performance.now() - started;
console.log(JSON.stringify({ mode, count, ms: Math.round(ms), per_second: Math.round(count / (ms / 1000)) }));
