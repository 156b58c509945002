// A loopback SMTP server that accepts every message and prints it: where the
// walkthrough's campaign sends (never a real mailbox). Run it in its own terminal:
//   pnpm --filter @outreach/examples catcher          (SMTP on 127.0.0.1:2525)
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import { isMain } from "./is-main.js";

export interface CaughtEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** Starts the catcher; `onEmail` sees every message it accepts. */
export async function startSmtpCatcher(options: { port: number; host?: string; onEmail?: (email: CaughtEmail) => void }): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    // senders keep their SMTP sessions open for reuse: close() ends them after a second instead of waiting 30
    closeTimeout: 1000,
    disabledCommands: ["STARTTLS"],
    onAuth: (_auth, _session, callback) => callback(null, { user: "example" }),
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          // the raw header values, by lower-cased name (the parser structures some, e.g. List-Unsubscribe)
          const headers: Record<string, string> = {};
          for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(":") + 1).trim();
          options.onEmail?.({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            headers,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (isMain(import.meta.url)) {
  const port = Number(process.env.SMTP_PORT ?? 2525);
  let count = 0;
  await startSmtpCatcher({
    port,
    onEmail(email) {
      count += 1;
      console.log(`#${count} ${email.from} -> ${email.to.join(", ")}: ${email.subject}`);
      console.log(`   ${email.text.split("\n").filter(Boolean).slice(0, 3).join("\n   ")}`);
    },
  });
  console.log(`SMTP catcher listening on 127.0.0.1:${port}; Ctrl-C to stop`);
}
