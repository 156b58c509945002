import type { Config, OAuthAppConfig } from "@outreach/core";

/** The mailbox providers whose mailboxes log in with OAuth2 (XOAUTH2 for SMTP and IMAP). */
export const OAUTH_PROVIDERS = ["google", "microsoft"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export function isOAuthProvider(value: unknown): value is OAuthProvider {
  return typeof value === "string" && (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

/** The deployment's OAuth app at a provider: its client and where users authorize and tokens are obtained. */
export type OAuthClient = OAuthAppConfig;
/** The configured providers' clients; a provider absent here is off (its client id and secret are unset). */
export type OAuthClients = Partial<Record<OAuthProvider, OAuthClient>>;

/** The OAuth clients of the configuration (GOOGLE_OAUTH_*, MICROSOFT_OAUTH_*). */
export function oauthClientsFromConfig(config: Pick<Config, "oauth">): OAuthClients {
  const clients: OAuthClients = {};
  for (const provider of OAUTH_PROVIDERS) {
    const app = config.oauth[provider];
    if (app) clients[provider] = app;
  }
  return clients;
}

export interface MailboxPreset {
  /** the name people know the provider by, in messages */
  label: string;
  smtpHost: string;
  smtpPort: number;
  /** implicit TLS (true) or STARTTLS (false) */
  smtpSecure: boolean;
  imapHost: string;
  imapPort: number;
  imapSecure: boolean;
  /**
   * The scopes asked for: the least that lets the service send (SMTP) and read
   * replies (IMAP) as the mailbox, plus openid and email so the token answer's
   * id_token names the mailbox address.
   */
  scopes: string;
  /** parameters added to the authorize URL */
  authorizeParams: Record<string, string>;
  /**
   * The daily limit of a credential that gives none. Low on purpose: most OAuth2
   * mailboxes are new Google Workspace or Microsoft 365 inboxes, which the
   * providers throttle or suspend when a fresh inbox suddenly sends hundreds of
   * messages a day; 50 is a common safe start, to raise (or ramp) with its health.
   */
  dailyLimit: number;
}

export const MAILBOX_PRESETS: Record<OAuthProvider, MailboxPreset> = {
  google: {
    label: "Google",
    smtpHost: "smtp.gmail.com",
    smtpPort: 465,
    smtpSecure: true,
    imapHost: "imap.gmail.com",
    imapPort: 993,
    imapSecure: true,
    // https://mail.google.com/ is the only Gmail scope SMTP and IMAP accept
    scopes: "https://mail.google.com/ openid email",
    // offline + consent: Google issues a refresh token (again) on every consent
    authorizeParams: { access_type: "offline", prompt: "consent" },
    dailyLimit: 50,
  },
  microsoft: {
    label: "Microsoft",
    smtpHost: "smtp.office365.com",
    smtpPort: 587,
    smtpSecure: false,
    imapHost: "outlook.office365.com",
    imapPort: 993,
    imapSecure: true,
    // offline_access: a refresh token is issued
    scopes: "offline_access https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All openid email",
    authorizeParams: {},
    dailyLimit: 50,
  },
};
