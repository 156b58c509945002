import { isAutoReply } from "./auto-reply.js";
import type { DsnReport, InboundMessage } from "./inbound-facts.js";
import { isUnsubscribeRequest, isUnsubscribeSubject } from "./unsubscribe-request.js";

export type InboundClassification = { kind: "bounce"; dsn: DsnReport } | { kind: "auto_reply"; why: string } | { kind: "unsubscribe" } | { kind: "reply" };

/**
 * What a message found in a watched inbox is, in this order: a permanent
 * delivery failure (bounce), a machine's message (auto-reply, out-of-office,
 * list mail, a delay notice), an unsubscribe request, else a reply candidate.
 * One exception to the order: a message whose subject is an unsubscribe request
 * counts as one even when marked automatic, because mail clients send the
 * List-Unsubscribe mailto on the person's behalf and may mark it so. Matching
 * the message to an enrollment (and checking the sender is the contact) is the
 * caller's job.
 */
export function classifyInbound(message: InboundMessage): InboundClassification {
  if (message.dsn?.permanent) return { kind: "bounce", dsn: message.dsn };
  if (message.dsn) return { kind: "auto_reply", why: `delivery status ${message.dsn.status ?? "notice"}: not a permanent failure` };
  if (isUnsubscribeSubject(message.subject)) return { kind: "unsubscribe" };
  const auto = isAutoReply(message);
  if (auto.auto) return { kind: "auto_reply", why: auto.why };
  if (isUnsubscribeRequest(message)) return { kind: "unsubscribe" };
  return { kind: "reply" };
}
