export type SmtpFailure = { kind: "bounce"; reason: string } | { kind: "temporary"; reason: string };

interface NodemailerError {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/**
 * A permanent (5xx) answer to the recipient or the message is a bounce. Every
 * other failure (4xx, connection, TLS, timeouts, and 5xx to AUTH or MAIL FROM,
 * which are problems of the inbox, not of the contact) is temporary: the send
 * is retried later.
 */
export function classifySmtpError(err: unknown): SmtpFailure {
  const e = (err ?? {}) as NodemailerError;
  const reason = (e.response || e.message || String(err)).slice(0, 1000);
  const code = e.responseCode ?? 0;
  const aboutRecipient = e.code === "EENVELOPE" || e.command === "RCPT TO" || e.command === "DATA" || e.code === "EMESSAGE";
  if (code >= 500 && code < 600 && aboutRecipient) return { kind: "bounce", reason };
  return { kind: "temporary", reason };
}
