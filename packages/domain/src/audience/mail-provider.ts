import { emailDomain, type MxVerifier } from "./mx-lookup.js";

/**
 * Which provider hosts a mailbox: an inbox's (what it sends through) and a
 * recipient's (what its domain's MX hosts are), for campaigns that send to a
 * Google recipient from a Google inbox and to a Microsoft one from a Microsoft
 * inbox (match_recipient_provider).
 */
export const MAIL_PROVIDERS = ["google", "microsoft", "other"] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

export function isMailProvider(value: unknown): value is MailProvider {
  return typeof value === "string" && (MAIL_PROVIDERS as readonly string[]).includes(value);
}

const hostOf = (host: string) => host.trim().toLowerCase().replace(/\.$/, "");
const isOrUnder = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The provider of an inbox's SMTP host: smtp.gmail.com and Google's hosts, Microsoft 365's and Outlook's hosts; else other. */
export function providerOfSmtpHost(smtpHost: string): MailProvider {
  const host = hostOf(smtpHost);
  if (isOrUnder(host, "gmail.com") || isOrUnder(host, "google.com") || isOrUnder(host, "googlemail.com")) return "google";
  if (isOrUnder(host, "office365.com") || isOrUnder(host, "outlook.com") || isOrUnder(host, "hotmail.com") || isOrUnder(host, "live.com")) return "microsoft";
  return "other";
}

/**
 * An inbox's provider: the one set on the credential, else its OAuth2
 * connection's provider, else what its SMTP host says.
 */
export function inboxProvider(credential: { provider: string | null; oauthProvider?: string | null; smtpHost: string }): MailProvider {
  if (isMailProvider(credential.provider)) return credential.provider;
  if (credential.oauthProvider === "google" || credential.oauthProvider === "microsoft") return credential.oauthProvider;
  return providerOfSmtpHost(credential.smtpHost);
}

/** The provider of a recipient's domain from its MX hosts (Google Workspace and Gmail, Microsoft 365 and Outlook), or null when neither. */
export function providerOfMxHosts(hosts: readonly string[]): RecipientProvider | null {
  for (const raw of hosts) {
    const host = hostOf(raw);
    if (isOrUnder(host, "google.com") || isOrUnder(host, "googlemail.com")) return "google";
    if (isOrUnder(host, "outlook.com") || isOrUnder(host, "hotmail.com")) return "microsoft";
  }
  return null;
}

/** A recipient's provider when it is one an inbox can match. */
export type RecipientProvider = Exclude<MailProvider, "other">;

/**
 * The providers of these recipients (by their id) whose domain's MX hosts are
 * Google's or Microsoft's, looked up through `mx` (cached, a few at a time):
 * what the planner prefers with match_recipient_provider. A domain without an
 * answer, or of another provider, has no entry (no preference). Call it
 * outside any transaction: look-ups can take seconds.
 */
export async function recipientProvidersOf(mx: MxVerifier, recipients: ReadonlyArray<{ id: string; email: string }>): Promise<Map<string, RecipientProvider>> {
  const answers = await mx.answerAll(recipients.map((r) => emailDomain(r.email)));
  const providers = new Map<string, RecipientProvider>();
  for (const r of recipients) {
    const provider = providerOfMxHosts(answers.get(emailDomain(r.email))?.hosts ?? []);
    if (provider) providers.set(r.id, provider);
  }
  return providers;
}
