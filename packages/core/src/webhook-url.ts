import { isIP } from "node:net";
import { isPrivateAddress, isPrivateHostname } from "./egress-guard.js";

/**
 * Outbound webhook targets: which URLs an account may register, and which
 * addresses a delivery may connect to. The API checks the URL when it is
 * saved; the address ranges are the egress guard's (egress-guard.ts), which
 * also resolves the name at save time and again when a delivery connects.
 */

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookUrlOptions {
  /** Allow loopback, private and other non-public targets (local development, tests). */
  allowPrivate: boolean;
}

export type WebhookUrlCheck =
  | { ok: true; /** The normalised URL (WHATWG serialisation), to store and to deliver to. */ url: string; hostname: string }
  | { ok: false; /** Completes a sentence that starts with the field name, e.g. "url must ...". */ reason: string };

/**
 * Checks a webhook URL: absolute http(s), at most WEBHOOK_URL_MAX_LENGTH
 * characters, no user name or password, and (unless allowPrivate) a host that
 * is neither a non-public IP literal nor a private name. Host names that pass
 * must still have each resolved address checked with isPrivateAddress when
 * delivering.
 */
export function checkWebhookUrl(input: string, options: WebhookUrlOptions): WebhookUrlCheck {
  if (input.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: "must be an absolute http or https URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "must be an absolute http or https URL" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "must not contain a user name or password" };
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters long` };
  const hostname = url.hostname;
  if (!options.allowPrivate) {
    const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : isIP(hostname) === 4 ? hostname : null;
    if (literal !== null ? isPrivateAddress(literal) : isPrivateHostname(hostname)) {
      return { ok: false, reason: "must point to a public host, not a loopback, private, link-local or other internal address" };
    }
  }
  return { ok: true, url: url.href, hostname };
}
