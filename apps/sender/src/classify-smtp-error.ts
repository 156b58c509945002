import type { SmtpPhase } from "./smtp-progress.js";

export type SmtpFailure =
  | { kind: "bounce"; reason: string }
  /** the body was sent and no answer came (drop, timeout): the message may have been delivered, and is never retried */
  | { kind: "unknown"; reason: string }
  /** a failure of the inbox itself (TLS, login, host refused, connection): the tenant must fix the credential */
  | { kind: "credential"; reason: string }
  | { kind: "temporary"; reason: string };

interface NodemailerError {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

// nodemailer's codes for failures before a message is handed over, and the guard's
const CREDENTIAL_CODES = new Set(["EAUTH", "ETLS", "ENOAUTH", "EGRESS_REFUSED", "EDNS", "ECONNECTION", "ESOCKET", "ECONNREFUSED", "EHOSTUNREACH", "ENOTFOUND"]);
const SESSION_COMMANDS = new Set(["CONN", "EHLO", "HELO", "LHLO", "STARTTLS", "AUTH PLAIN", "AUTH LOGIN", "AUTH CRAM-MD5", "AUTH XOAUTH2", "API"]);

/**
 * Once the body was sent (`phase` "body", see SmtpProgress), a failure without
 * a 4xx/5xx answer from the server (the connection dropped, timed out, or the
 * answer could not be read) leaves the outcome unknown: the server may have
 * accepted the message. An explicit 4xx answer to the final dot is a refusal
 * and is retried like any other.
 * A permanent (5xx) answer to the recipient or the message is a bounce. A
 * failure to open the session (TLS missing or unverified, login refused, host
 * refused by the egress guard, connection refused) is the credential's: the
 * contact is not bounced, and the tenant sees the error on the credential.
 * Everything else (4xx, timeouts, 5xx to MAIL FROM) is temporary: the send is
 * retried later. So is a transaction cut at its deadline before the body
 * (SmtpDeadlineError, "EDEADLINE"), whatever command it was stuck in: a slow
 * server, not a wrong credential.
 */
export function classifySmtpError(err: unknown, phase: SmtpPhase = "envelope"): SmtpFailure {
  const e = (err ?? {}) as NodemailerError;
  const reason = (e.response || e.message || String(err)).slice(0, 1000);
  const code = e.responseCode ?? 0;
  if (phase === "body" && !(code >= 400 && code < 600)) return { kind: "unknown", reason: `outcome unknown: the message was sent but the server's answer never came (${reason})` };
  if (e.code === "EDEADLINE") return { kind: "temporary", reason };
  const aboutRecipient = e.code === "EENVELOPE" || e.command === "RCPT TO" || e.command === "DATA" || e.code === "EMESSAGE";
  if (code >= 500 && code < 600 && aboutRecipient) return { kind: "bounce", reason };
  if ((e.code !== undefined && CREDENTIAL_CODES.has(e.code)) || (e.command !== undefined && SESSION_COMMANDS.has(e.command))) return { kind: "credential", reason: credentialReason(e, reason) };
  return { kind: "temporary", reason };
}

/** What the tenant reads on the credential: what failed, then what the server or the TLS layer said. */
function credentialReason(e: NodemailerError, reason: string): string {
  if (e.command === "STARTTLS" || e.code === "ETLS") return `TLS is required but the server did not start it; use implicit TLS (smtp_secure) or a server offering STARTTLS (server: ${reason})`;
  if (/certificate|altnames|self[- ]signed|issuer/i.test(reason)) return `the server's TLS certificate was not accepted: ${reason}`;
  if (e.code === "EAUTH" || e.command?.startsWith("AUTH")) return `login refused: ${reason}`;
  return reason;
}
