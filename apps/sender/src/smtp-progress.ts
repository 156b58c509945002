import type { Logger as NodemailerLogger } from "nodemailer/lib/shared/index.js";

/**
 * How far an SMTP session got with the message it is sending:
 * - "envelope": the server has not let the body through yet (connect,
 *   greeting, EHLO, STARTTLS, AUTH, MAIL FROM, RCPT TO, DATA). It cannot have
 *   the message: a failure here is safe to retry.
 * - "body": the server answered DATA with 354, so the body and its final dot
 *   went (or were going) to the socket. From here only the server's answer
 *   tells what happened to the message; without one, nobody knows.
 */
export type SmtpPhase = "envelope" | "body";

interface LogEntry {
  tnx?: string;
  sid?: string;
}

/**
 * Follows one pooled nodemailer transport's session through its transaction
 * log (`transactionLog: true`: the commands sent and the replies received,
 * never the message itself), because nodemailer's errors do not say whether
 * the body was sent: a dropped connection is ECONNECTION and a timeout
 * ETIMEDOUT, with command "CONN", before and after the final dot alike.
 * Commands and replies are paired in order (PIPELINING sends MAIL FROM, RCPT
 * TO and DATA together), so the reply to DATA is known when it arrives.
 */
export class SmtpProgress {
  private current: SmtpPhase = "envelope";
  private sessionId: string | undefined;
  /** commands of the current SMTP connection still waiting for their reply */
  private unanswered: string[] = [];

  /** For nodemailer's `logger` option. */
  readonly logger: NodemailerLogger = {
    trace: () => undefined,
    debug: (...params: unknown[]) => this.observe(params[0] as LogEntry | undefined, params[1]),
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    fatal: () => undefined,
  };

  /** Called before each message is handed to the transport. */
  startMessage(): void {
    this.current = "envelope";
  }

  get phase(): SmtpPhase {
    return this.current;
  }

  private observe(entry: LogEntry | undefined, message: unknown): void {
    if (typeof message !== "string" || typeof entry !== "object" || (entry.tnx !== "client" && entry.tnx !== "server")) return;
    // a pooled transport may open a new connection (with its own greeting and EHLO) for the next message
    if (entry.sid !== this.sessionId) {
      this.sessionId = entry.sid;
      this.unanswered = [];
    }
    if (entry.tnx === "client") {
      this.unanswered.push(message.split(" ", 1)[0]!.toUpperCase());
      return;
    }
    // the greeting (and the answer to the final dot, which is no logged command) answers nothing queued
    const command = this.unanswered.shift();
    // the reply on which nodemailer starts writing the body: 354 (or, from a few servers, 250)
    if (command === "DATA" && /^[23]/.test(message)) this.current = "body";
  }
}
