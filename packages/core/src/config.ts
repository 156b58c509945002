import { isIP } from "node:net";
import Joi from "joi";
import { parseRedisClusterSeeds, type RedisClusterConfig } from "./redis-cluster-seeds.js";
import { clusterQueuePrefix } from "./redis-keys.js";
import { IMAP_CONNECTIONS_PER_REPLICA_DEFAULT, IMAP_INBOXES_PER_ACCOUNT_DEFAULT, SEND_CONCURRENCY_PER_ACCOUNT, SMTP_SESSIONS_PER_MAILBOX_DEFAULT } from "./limits.js";

export type AppName = "api" | "dispatcher" | "sender" | "imap-poller" | "webhook-deliverer";

export const DEFAULT_HEALTH_PORTS: Record<Exclude<AppName, "api">, number> = {
  dispatcher: 3001,
  sender: 3002,
  "imap-poller": 3003,
  "webhook-deliverer": 3004,
};

// Used only when ENCRYPTION_KEY is unset, with a warning in the log.
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.alloc(32, "outreach-development-key-00000000").toString("base64");

export interface Config {
  nodeEnv: string;
  port: number;
  healthPort: number;
  databaseUrl: string;
  /** A connection that bypasses a transaction pooler: LISTEN/NOTIFY, migrations, session advisory locks. */
  databaseDirectUrl: string;
  /** Connection settings of every app's PostgreSQL pool (applied by createDbClient in @outreach/db). */
  database: DatabaseConfig;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: when set, every connection is to this Redis Cluster and redisUrl is not used. */
  redisCluster: RedisClusterConfig | undefined;
  /** The prefix of every Redis key: QUEUE_PREFIX, hash-tagged ({QUEUE_PREFIX}) on a Redis Cluster (see redis-keys.ts). */
  queuePrefix: string;
  publicBaseUrl: string;
  docsUrl: string;
  /** Express "trust proxy": a hop count (0 = none) or the CIDRs of trusted proxies. Never "every hop". */
  trustProxy: number | string[];
  rateLimitPerMinute: number;
  /** All of an account's keys together, per 60 s: more keys give no more requests. */
  rateLimitPerAccountPerMinute: number;
  /** Failed authentications (unknown or revoked keys) per client IP per 60 s before 429; a request without a key never counts. */
  authFailureLimitPerMinute: number;
  /** How long GET /plans is answered from memory (0: every request reads the database). */
  plansCacheSeconds: number;
  /** Tracking routes (open pixel, unsubscribe) per client IP per 60 s. */
  trackingRateLimitPerMinute: number;
  signupLimitPerHour: number;
  /** the api's Prometheus listener (GET /metrics), never the public PORT; 0 picks a free port */
  metricsPort: number;
  /** Bearer token of the operator views on the metrics listener (/admin/queues, /admin/schedule); undefined: the views are off */
  operatorToken: string | undefined;
  /** POST /mcp from a browser page (a request with Origin): the origins allowed, e.g. "https://app.example.com" */
  mcpAllowedOrigins: string[];
  /** ...and the Host names such a request may name (DNS rebinding protection); "*" allows any */
  mcpAllowedHosts: string[];
  imapPollIntervalSeconds: number;
  /** the most IMAP connections (watched inboxes) one imap-poller replica holds */
  imapMaxConnections: number;
  /** the most inboxes of one account a poller replica watches (0: no fixed cap, only a fair share when inboxes wait) */
  imapMaxInboxesPerAccount: number;
  /** the wait after a refused IMAP login, doubling with each refusal in a row */
  imapLoginRetrySeconds: number;
  /** refused IMAP logins in a row after which the inbox is no longer tried until re-enabled */
  imapLoginMaxFailures: number;
  dnsServers: string[];
  /** DNSBL zones the sender-domain health check looks the sending hosts' addresses up in (DNSBL_ZONES); empty: not checked. */
  dnsblZones: string[];
  webhookAllowPrivateUrls: boolean;
  mailAllowPrivateHosts: boolean;
  mailRequireTls: boolean;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  /** Days kept before the dispatcher's retention purge deletes them (RETENTION_*_DAYS). */
  retention: { requestLogDays: number; eventDays: number; webhookDeliveryDays: number };
  /** How long the sender waits for any SMTP answer (or for the socket to accept data) before the attempt fails. */
  smtpSocketTimeoutMs: number;
  /** The most one SMTP transaction may take, from connecting (or taking an open session) to the server's final answer, however steadily the server answers. */
  smtpTransactionTimeoutMs: number;
  smtpSessionsPerMailbox: number;
  encryptionKey: Buffer;
  encryptionKeyIsDevelopment: boolean;
  /** Earlier keys, still used to decrypt data and verify links made before a rotation. */
  encryptionPreviousKeys: Buffer[];
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiBase: string | undefined;
  relayWebhookSecret: string | undefined;
  /** Where the provider's checkout sends the buyer back to: after paying, after giving up. */
  billingSuccessUrl: string;
  billingCancelUrl: string;
  /** Where the provider's customer portal links back to. */
  billingPortalReturnUrl: string;
  logLevel: string;
  /** Step-send rows (enrollments x steps) planned and committed per transaction by dispatch and re-plans. */
  dispatchChunkSize: number;
  /** Lock of a running dispatcher job: a job whose process died is taken over after about twice this. */
  dispatchJobLockMs: number;
  /** The model asked about replies the rules leave as "other"; undefined (REPLY_CLASSIFIER_URL unset): rules only. */
  replyClassifier: ReplyClassifierConfig | undefined;
  /** The deployment's OAuth apps for OAuth2 (XOAUTH2) mailboxes; undefined: that provider's OAuth is off. */
  oauth: { google: OAuthAppConfig | undefined; microsoft: OAuthAppConfig | undefined };
}

/** An OAuth app (client) registered with a mailbox provider, and where its users authorize and tokens are obtained. */
export interface OAuthAppConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
}

export interface ReplyClassifierConfig {
  /** the whole chat-completions URL of an OpenAI-compatible endpoint */
  url: string;
  apiKey: string;
  model: string;
  /** the most one question may take, answer read included */
  timeoutMs: number;
  /** questions per account per UTC day; past it the rules' answer stays */
  dailyBudget: number;
}

export interface DatabaseConfig {
  /** connections in each process's pool */
  poolSize: number;
  /** 0 = none */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** DATABASE_URL reaches PostgreSQL through a transaction-pooling PgBouncer. */
  transactionPooling: boolean;
}

const boolean = Joi.boolean().truthy("1", "yes", "on").falsy("0", "no", "off", "");
const hostPort = Joi.string().pattern(/^(\[[0-9a-fA-F:]+\]|[^\s:,]+)(:\d{1,5})?$/, "host:port");

/** An absolute http(s) URL. Not Joi's uri(): the payment provider fills placeholders such as {CHECKOUT_SESSION_ID} into return URLs. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
const httpUrl = Joi.string()
  .custom((value: string, helpers) => (isHttpUrl(value) ? value : helpers.error("any.invalid")))
  .messages({ "any.invalid": "must be an absolute http(s) URL" });

const schema = Joi.object({
  NODE_ENV: Joi.string().valid("development", "production", "test").default("development"),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  HEALTH_PORT: Joi.number().integer().min(0).max(65535),
  METRICS_PORT: Joi.number().integer().min(0).max(65535).default(9464),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ["postgres", "postgresql"] })
    .default("postgresql://postgres@127.0.0.1:5432/outreach"),
  DATABASE_DIRECT_URL: Joi.string().uri({ scheme: ["postgres", "postgresql"] }),
  DATABASE_POOL_SIZE: Joi.number().integer().min(1).max(1000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).max(86_400_000).default(30_000),
  DATABASE_LOCK_TIMEOUT_MS: Joi.number().integer().min(0).max(86_400_000).default(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: Joi.number().integer().min(0).max(86_400_000).default(60_000),
  DATABASE_TRANSACTION_POOLING: boolean.default(false),
  REDIS_URL: Joi.string()
    .uri({ scheme: ["redis", "rediss"] })
    .default("redis://127.0.0.1:6379"),
  // parsed by parseRedisClusterSeeds in loadConfig (host:port seeds, or redis[s]:// URLs carrying credentials)
  REDIS_CLUSTER_NODES: Joi.string(),
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9_.-]+$/, "letters, digits, _ . -")
    .max(64)
    .default("outreach"),
  PUBLIC_BASE_URL: Joi.string().uri({ scheme: ["http", "https"] }),
  DOCS_URL: Joi.string().uri({ scheme: ["http", "https"] }),
  TRUST_PROXY: Joi.string().default("false"),
  RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(60),
  // default: three times RATE_LIMIT_PER_MINUTE (see loadConfig)
  RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: Joi.number().integer().min(1),
  AUTH_FAILURE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(300),
  PLANS_CACHE_SECONDS: Joi.number().integer().min(0).max(3600).default(30),
  TRACKING_RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(600),
  SIGNUP_LIMIT_PER_HOUR: Joi.number().integer().min(1).default(5),
  // unset: the operator views are off; short tokens are refused (it guards every account's queues)
  OPERATOR_TOKEN: Joi.string().min(16),
  MCP_ALLOWED_ORIGINS: Joi.string().allow(""),
  MCP_ALLOWED_HOSTS: Joi.string().allow(""),
  IMAP_POLL_INTERVAL_SECONDS: Joi.number().integer().min(1).default(60),
  IMAP_MAX_CONNECTIONS: Joi.number().integer().min(1).max(100_000).default(IMAP_CONNECTIONS_PER_REPLICA_DEFAULT),
  IMAP_MAX_INBOXES_PER_ACCOUNT: Joi.number().integer().min(0).max(100_000).default(IMAP_INBOXES_PER_ACCOUNT_DEFAULT),
  IMAP_LOGIN_RETRY_SECONDS: Joi.number().integer().min(1).max(86_400).default(60),
  IMAP_LOGIN_MAX_FAILURES: Joi.number().integer().min(1).max(1000).default(5),
  DNS_SERVERS: Joi.string().allow("").default(""),
  DNSBL_ZONES: Joi.string().allow("").default("zen.spamhaus.org"),
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean.default(false),
  MAIL_ALLOW_PRIVATE_HOSTS: boolean.default(false),
  MAIL_REQUIRE_TLS: boolean.default(true),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(1).default(10_000),
  WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(1).default(10_000),
  RETENTION_REQUEST_LOG_DAYS: Joi.number().integer().min(1).max(3650).default(30),
  RETENTION_EVENT_DAYS: Joi.number().integer().min(1).max(3650).default(30),
  RETENTION_WEBHOOK_DELIVERY_DAYS: Joi.number().integer().min(1).max(3650).default(30),
  SMTP_SOCKET_TIMEOUT_MS: Joi.number().integer().min(100).max(600_000).default(60_000),
  // under the dispatcher's 5 minutes after which a send still "sending" is failed as interrupted
  SMTP_TRANSACTION_TIMEOUT_MS: Joi.number().integer().min(1_000).max(240_000).default(120_000),
  // concurrent SMTP sessions per mailbox (same host and username), within the account's SEND_CONCURRENCY_PER_ACCOUNT
  SMTP_SESSIONS_PER_MAILBOX: Joi.number().integer().min(1).max(SEND_CONCURRENCY_PER_ACCOUNT).default(SMTP_SESSIONS_PER_MAILBOX_DEFAULT),
  ENCRYPTION_KEY: Joi.string().base64(),
  ENCRYPTION_PREVIOUS_KEYS: Joi.string(),
  STRIPE_SECRET_KEY: Joi.string(),
  STRIPE_WEBHOOK_SECRET: Joi.string(),
  STRIPE_API_BASE: Joi.string().uri({ scheme: ["http", "https"] }),
  RELAY_WEBHOOK_SECRET: Joi.string(),
  BILLING_SUCCESS_URL: httpUrl,
  BILLING_CANCEL_URL: httpUrl,
  BILLING_PORTAL_RETURN_URL: httpUrl,
  LOG_LEVEL: Joi.string().valid("error", "warn", "info", "http", "verbose", "debug", "silly").default("info"),
  DISPATCH_CHUNK_SIZE: Joi.number().integer().min(1).max(1_000_000).default(10_000),
  DISPATCH_JOB_LOCK_MS: Joi.number().integer().min(1_000).max(600_000).default(30_000),
  // unset: replies are categorized by the rules only
  REPLY_CLASSIFIER_URL: httpUrl,
  REPLY_CLASSIFIER_API_KEY: Joi.string(),
  REPLY_CLASSIFIER_MODEL: Joi.string().max(200).default("gpt-4o-mini"),
  REPLY_CLASSIFIER_TIMEOUT_MS: Joi.number().integer().min(100).max(120_000).default(10_000),
  REPLY_CLASSIFIER_DAILY_BUDGET: Joi.number().integer().min(0).max(10_000_000).default(500),
  // unset (id and secret): that provider's OAuth2 mailboxes are off
  GOOGLE_OAUTH_CLIENT_ID: Joi.string().max(500),
  GOOGLE_OAUTH_CLIENT_SECRET: Joi.string().max(500),
  GOOGLE_OAUTH_AUTHORIZE_URL: httpUrl.default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_OAUTH_TOKEN_URL: httpUrl.default("https://oauth2.googleapis.com/token"),
  MICROSOFT_OAUTH_CLIENT_ID: Joi.string().max(500),
  MICROSOFT_OAUTH_CLIENT_SECRET: Joi.string().max(500),
  MICROSOFT_OAUTH_AUTHORIZE_URL: httpUrl.default("https://login.microsoftonline.com/common/oauth2/v2.0/authorize"),
  MICROSOFT_OAUTH_TOKEN_URL: httpUrl.default("https://login.microsoftonline.com/common/oauth2/v2.0/token"),
}).unknown(true);

/** Every configuration variable the apps read (.env.example lists them all). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.describe().keys ?? {});

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Variables whose values may carry a secret (a password inside a URL, a key):
 * a configuration error names them but never repeats what they hold.
 */
const SECRET_VARIABLES = new Set([
  "DATABASE_URL",
  "DATABASE_DIRECT_URL",
  "REDIS_URL",
  "REDIS_CLUSTER_NODES",
  "ENCRYPTION_KEY",
  "ENCRYPTION_PREVIOUS_KEYS",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "RELAY_WEBHOOK_SECRET",
  "REPLY_CLASSIFIER_API_KEY",
  "GOOGLE_OAUTH_CLIENT_SECRET",
  "MICROSOFT_OAUTH_CLIENT_SECRET",
]);

function invalid(variable: string, problem: string, got: string | undefined): ConfigError {
  if (SECRET_VARIABLES.has(variable)) {
    const redacted = got ? problem.split(got).join("[redacted]") : problem;
    return new ConfigError(variable, `Invalid configuration: ${variable}: ${redacted}`);
  }
  return new ConfigError(variable, `Invalid configuration: ${variable}: ${problem}${got === undefined ? "" : ` (got ${JSON.stringify(got)})`}`);
}

const FALSE_WORDS = new Set(["false", "0", "no", "off"]);
const TRUE_WORDS = new Set(["true", "yes", "on"]);

function isCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  if (rest.length > 0 || !address) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/** A comma-separated list: its trimmed, non-empty entries. */
function listOf(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Who may call POST /mcp from a browser page: MCP_ALLOWED_ORIGINS (default: the
 * origin of PUBLIC_BASE_URL) and MCP_ALLOWED_HOSTS (default: PUBLIC_BASE_URL's
 * host name and the loopback names), each added to those defaults.
 */
function mcpAllowed(origins: string | undefined, hosts: string | undefined, publicBaseUrl: string): Pick<Config, "mcpAllowedOrigins" | "mcpAllowedHosts"> {
  const publicUrl = new URL(publicBaseUrl);
  const allowedOrigins = listOf(origins).map((origin) => {
    if (origin === "*") return origin;
    try {
      const url = new URL(origin);
      if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, "")) throw new Error("not an origin");
      return url.origin;
    } catch {
      throw invalid("MCP_ALLOWED_ORIGINS", "must be a comma-separated list of origins such as https://app.example.com (scheme, host and port only), or *", origins ?? "");
    }
  });
  const allowedHosts = listOf(hosts).map((host) => {
    if (host === "*") return host;
    if (!/^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/i.test(host)) {
      throw invalid("MCP_ALLOWED_HOSTS", "must be a comma-separated list of host names without port (IPv6 in brackets), or *", hosts ?? "");
    }
    return host.toLowerCase();
  });
  return {
    mcpAllowedOrigins: [...new Set([publicUrl.origin, ...allowedOrigins])],
    mcpAllowedHosts: [...new Set([publicUrl.hostname.toLowerCase(), "localhost", "127.0.0.1", "[::1]", ...allowedHosts])],
  };
}

/**
 * TRUST_PROXY: false/0 (none), true (1 hop), a number of hops, or a
 * comma-separated list of CIDRs (or single addresses) of trusted proxies.
 * Never "every hop": then any client could choose its own IP.
 */
function parseTrustProxy(raw: string): number | string[] {
  const text = raw.trim().toLowerCase();
  if (FALSE_WORDS.has(text)) return 0;
  if (TRUE_WORDS.has(text)) return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw invalid("TRUST_PROXY", "a hop count must be at most 32", raw);
    return hops;
  }
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isCidr(entry));
  if (entries.length === 0 || bad !== undefined) {
    throw invalid("TRUST_PROXY", "must be false, true, a number of hops, or a comma-separated list of CIDRs", raw);
  }
  return entries;
}

function parseKey(variable: string, text: string): Buffer {
  const key = Buffer.from(text, "base64");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || key.length !== 32) {
    throw invalid(variable, `must be 32 bytes in base64 (got ${key.length} bytes)`, undefined);
  }
  return key;
}

/** A value left as shipped in an example: REPLACE_ME anywhere (any case), "changeme", or only blanks. */
export function isPlaceholderSecret(text: string): boolean {
  const trimmed = text.trim().toLowerCase();
  return trimmed === "" || trimmed.includes("replace_me") || ["changeme", "change-me", "change_me"].includes(trimmed);
}

/**
 * In production a feature that is on must have a real secret: a payment
 * provider (STRIPE_SECRET_KEY set) needs both of its secrets, and the relay
 * endpoint (on when RELAY_WEBHOOK_SECRET is set) a secret nobody else knows.
 * Empty values count as unset, so an empty secret turns its feature off.
 */
function refusePlaceholderSecrets(value: Record<string, string | undefined>): void {
  const refuse = (variable: string, problem: string) => new ConfigError(variable, `Invalid configuration: ${variable}: ${problem}`);
  const placeholder = "is a placeholder (REPLACE_ME, changeme or blank), refused when NODE_ENV=production; set the real secret";
  if (value.STRIPE_SECRET_KEY !== undefined) {
    if (isPlaceholderSecret(value.STRIPE_SECRET_KEY)) throw refuse("STRIPE_SECRET_KEY", `${placeholder}, or leave it empty to run without a payment provider`);
    if (value.STRIPE_WEBHOOK_SECRET === undefined) throw refuse("STRIPE_WEBHOOK_SECRET", "required when STRIPE_SECRET_KEY is set and NODE_ENV=production");
  }
  if (value.STRIPE_WEBHOOK_SECRET !== undefined && isPlaceholderSecret(value.STRIPE_WEBHOOK_SECRET)) throw refuse("STRIPE_WEBHOOK_SECRET", placeholder);
  if (value.OPERATOR_TOKEN !== undefined && isPlaceholderSecret(value.OPERATOR_TOKEN)) {
    throw refuse("OPERATOR_TOKEN", `${placeholder}, or leave it empty to turn the operator views off`);
  }
  if (value.RELAY_WEBHOOK_SECRET !== undefined && isPlaceholderSecret(value.RELAY_WEBHOOK_SECRET)) {
    throw refuse("RELAY_WEBHOOK_SECRET", `${placeholder}, or leave it empty to turn POST /webhooks/relay off`);
  }
  if (value.REPLY_CLASSIFIER_URL !== undefined && value.REPLY_CLASSIFIER_API_KEY !== undefined && isPlaceholderSecret(value.REPLY_CLASSIFIER_API_KEY)) {
    throw refuse("REPLY_CLASSIFIER_API_KEY", `${placeholder}, or leave REPLY_CLASSIFIER_URL empty to categorize replies by the rules only`);
  }
  for (const variable of ["GOOGLE_OAUTH_CLIENT_SECRET", "MICROSOFT_OAUTH_CLIENT_SECRET"] as const) {
    if (value[variable] !== undefined && isPlaceholderSecret(value[variable]))
      throw refuse(variable, `${placeholder}, or leave it and its client id empty to turn that provider's OAuth2 mailboxes off`);
  }
  // the deployment examples' postgresql://outreach:REPLACE_ME@...: a password left as shipped
  // (a URL without a password, for trust or certificate logins, is fine)
  for (const variable of ["DATABASE_URL", "DATABASE_DIRECT_URL"] as const) {
    const password = urlPassword(value[variable]);
    if (password !== "" && isPlaceholderSecret(password)) throw refuse(variable, "its password is a placeholder (REPLACE_ME or changeme), refused when NODE_ENV=production; set the real one");
  }
}

/** The decoded password of a connection URL; "" when there is none or the URL is unreadable (validated elsewhere). */
function urlPassword(url: string | undefined): string {
  if (!url) return "";
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return "";
  }
}

/**
 * REPLY_CLASSIFIER_URL turns the model on; its key must come with it. A key,
 * model or budget without the URL changes nothing (the feature stays off).
 */
function replyClassifierOf(value: {
  REPLY_CLASSIFIER_URL?: string;
  REPLY_CLASSIFIER_API_KEY?: string;
  REPLY_CLASSIFIER_MODEL: string;
  REPLY_CLASSIFIER_TIMEOUT_MS: number;
  REPLY_CLASSIFIER_DAILY_BUDGET: number;
}): ReplyClassifierConfig | undefined {
  if (value.REPLY_CLASSIFIER_URL === undefined) return undefined;
  if (value.REPLY_CLASSIFIER_API_KEY === undefined) {
    throw new ConfigError(
      "REPLY_CLASSIFIER_API_KEY",
      "Invalid configuration: REPLY_CLASSIFIER_API_KEY: required when REPLY_CLASSIFIER_URL is set (the endpoint's bearer key); or leave REPLY_CLASSIFIER_URL empty to categorize replies by the rules only",
    );
  }
  return {
    url: value.REPLY_CLASSIFIER_URL,
    apiKey: value.REPLY_CLASSIFIER_API_KEY,
    model: value.REPLY_CLASSIFIER_MODEL,
    timeoutMs: value.REPLY_CLASSIFIER_TIMEOUT_MS,
    dailyBudget: value.REPLY_CLASSIFIER_DAILY_BUDGET,
  };
}

/**
 * A provider's OAuth app: its client id and secret come together (one without
 * the other is refused, naming the missing one); neither: that provider is off.
 */
function oauthAppOf(prefix: "GOOGLE" | "MICROSOFT", value: Record<string, string | undefined>): OAuthAppConfig | undefined {
  const clientId = value[`${prefix}_OAUTH_CLIENT_ID`];
  const clientSecret = value[`${prefix}_OAUTH_CLIENT_SECRET`];
  if (clientId === undefined && clientSecret === undefined) return undefined;
  const missing = clientId === undefined ? "CLIENT_ID" : clientSecret === undefined ? "CLIENT_SECRET" : undefined;
  if (missing) {
    const given = missing === "CLIENT_ID" ? "CLIENT_SECRET" : "CLIENT_ID";
    const variable = `${prefix}_OAUTH_${missing}`;
    throw new ConfigError(
      variable,
      `Invalid configuration: ${variable}: required when ${prefix}_OAUTH_${given} is set (the OAuth app's client id and secret come together); or leave both empty to turn that provider's OAuth2 mailboxes off`,
    );
  }
  return { clientId: clientId!, clientSecret: clientSecret!, authorizeUrl: value[`${prefix}_OAUTH_AUTHORIZE_URL`]!, tokenUrl: value[`${prefix}_OAUTH_TOKEN_URL`]! };
}

/** Reads and validates the environment. Throws ConfigError naming the first bad variable (and never echoing a secret). */
export function loadConfig(app: AppName, env: NodeJS.ProcessEnv = process.env): Config {
  // Treat empty strings as unset, the way shells and ConfigMaps produce them.
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== "") input[key] = value;

  const { value, error } = schema.validate(input, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0]!;
    const variable = String(detail.path[0] ?? "unknown");
    throw invalid(variable, detail.message.replace(/^"[^"]+" /, ""), input[variable]);
  }

  const dnsServers = (value.DNS_SERVERS as string)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of dnsServers) {
    if (hostPort.validate(server).error) {
      throw new ConfigError("DNS_SERVERS", `Invalid configuration: DNS_SERVERS: ${JSON.stringify(server)} is not host or host:port`);
    }
  }

  // DNSBL_ZONES set but empty (or "none") turns the blocklist check off; unset, it is the default zone.
  const dnsblOff = env.DNSBL_ZONES?.trim() === "" || String(value.DNSBL_ZONES).trim().toLowerCase() === "none";
  const dnsblZones = dnsblOff ? [] : listOf(value.DNSBL_ZONES).map((zone) => zone.toLowerCase().replace(/\.$/, ""));
  for (const zone of dnsblZones) {
    if (Joi.string().hostname().validate(zone).error) {
      throw new ConfigError("DNSBL_ZONES", `Invalid configuration: DNSBL_ZONES: ${JSON.stringify(zone)} is not a DNS zone`);
    }
  }

  let redisCluster: RedisClusterConfig | undefined;
  try {
    redisCluster = value.REDIS_CLUSTER_NODES === undefined ? undefined : parseRedisClusterSeeds(value.REDIS_CLUSTER_NODES);
  } catch (error) {
    throw new ConfigError("REDIS_CLUSTER_NODES", `Invalid configuration: REDIS_CLUSTER_NODES: ${(error as Error).message}`);
  }

  const production = value.NODE_ENV === "production";
  let encryptionKey: Buffer;
  const encryptionKeyIsDevelopment = !value.ENCRYPTION_KEY || value.ENCRYPTION_KEY === DEVELOPMENT_ENCRYPTION_KEY;
  if (value.ENCRYPTION_KEY) {
    encryptionKey = parseKey("ENCRYPTION_KEY", value.ENCRYPTION_KEY);
    if (production && encryptionKey.equals(Buffer.from(DEVELOPMENT_ENCRYPTION_KEY, "base64"))) {
      throw new ConfigError("ENCRYPTION_KEY", "Invalid configuration: ENCRYPTION_KEY: the published development key is refused when NODE_ENV=production; generate one with `openssl rand -base64 32`");
    }
  } else {
    if (production) {
      throw new ConfigError("ENCRYPTION_KEY", "Invalid configuration: ENCRYPTION_KEY: required when NODE_ENV=production; generate one with `openssl rand -base64 32`");
    }
    encryptionKey = Buffer.from(DEVELOPMENT_ENCRYPTION_KEY, "base64");
  }
  if (production) refusePlaceholderSecrets(value);
  const replyClassifier = replyClassifierOf(value);
  const oauth = { google: oauthAppOf("GOOGLE", value), microsoft: oauthAppOf("MICROSOFT", value) };
  const encryptionPreviousKeys = ((value.ENCRYPTION_PREVIOUS_KEYS as string | undefined) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((text) => parseKey("ENCRYPTION_PREVIOUS_KEYS", text))
    .filter((key, index, all) => !key.equals(encryptionKey) && all.findIndex((other) => other.equals(key)) === index);

  const port = value.PORT as number;
  const publicBaseUrl = stripTrailingSlash(value.PUBLIC_BASE_URL ?? `http://localhost:${port}`);
  const healthPort = app === "api" ? port : ((value.HEALTH_PORT as number | undefined) ?? DEFAULT_HEALTH_PORTS[app]);

  return {
    nodeEnv: value.NODE_ENV,
    port,
    healthPort,
    databaseUrl: value.DATABASE_URL,
    databaseDirectUrl: value.DATABASE_DIRECT_URL ?? value.DATABASE_URL,
    database: {
      poolSize: value.DATABASE_POOL_SIZE,
      statementTimeoutMs: value.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: value.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: value.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      transactionPooling: value.DATABASE_TRANSACTION_POOLING,
    },
    redisUrl: value.REDIS_URL,
    redisCluster,
    queuePrefix: redisCluster ? clusterQueuePrefix(value.QUEUE_PREFIX) : value.QUEUE_PREFIX,
    publicBaseUrl,
    docsUrl: stripTrailingSlash(value.DOCS_URL ?? `${publicBaseUrl}/docs`),
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
    rateLimitPerAccountPerMinute: value.RATE_LIMIT_PER_ACCOUNT_PER_MINUTE ?? 3 * value.RATE_LIMIT_PER_MINUTE,
    authFailureLimitPerMinute: value.AUTH_FAILURE_LIMIT_PER_MINUTE,
    plansCacheSeconds: value.PLANS_CACHE_SECONDS,
    trackingRateLimitPerMinute: value.TRACKING_RATE_LIMIT_PER_MINUTE,
    signupLimitPerHour: value.SIGNUP_LIMIT_PER_HOUR,
    metricsPort: value.METRICS_PORT,
    operatorToken: value.OPERATOR_TOKEN,
    ...mcpAllowed(value.MCP_ALLOWED_ORIGINS, value.MCP_ALLOWED_HOSTS, publicBaseUrl),
    imapPollIntervalSeconds: value.IMAP_POLL_INTERVAL_SECONDS,
    imapMaxConnections: value.IMAP_MAX_CONNECTIONS,
    imapMaxInboxesPerAccount: value.IMAP_MAX_INBOXES_PER_ACCOUNT,
    imapLoginRetrySeconds: value.IMAP_LOGIN_RETRY_SECONDS,
    imapLoginMaxFailures: value.IMAP_LOGIN_MAX_FAILURES,
    dnsServers,
    dnsblZones,
    webhookAllowPrivateUrls: value.WEBHOOK_ALLOW_PRIVATE_URLS,
    mailAllowPrivateHosts: value.MAIL_ALLOW_PRIVATE_HOSTS,
    mailRequireTls: value.MAIL_REQUIRE_TLS,
    webhookTimeoutMs: value.WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: value.WEBHOOK_RETRY_BASE_MS,
    retention: { requestLogDays: value.RETENTION_REQUEST_LOG_DAYS, eventDays: value.RETENTION_EVENT_DAYS, webhookDeliveryDays: value.RETENTION_WEBHOOK_DELIVERY_DAYS },
    smtpSocketTimeoutMs: value.SMTP_SOCKET_TIMEOUT_MS,
    smtpTransactionTimeoutMs: value.SMTP_TRANSACTION_TIMEOUT_MS,
    smtpSessionsPerMailbox: value.SMTP_SESSIONS_PER_MAILBOX,
    encryptionKey,
    encryptionKeyIsDevelopment,
    encryptionPreviousKeys,
    stripeSecretKey: value.STRIPE_SECRET_KEY,
    stripeWebhookSecret: value.STRIPE_WEBHOOK_SECRET,
    stripeApiBase: value.STRIPE_API_BASE,
    relayWebhookSecret: value.RELAY_WEBHOOK_SECRET,
    billingSuccessUrl: value.BILLING_SUCCESS_URL ?? `${publicBaseUrl}/?checkout=success`,
    billingCancelUrl: value.BILLING_CANCEL_URL ?? `${publicBaseUrl}/?checkout=cancel`,
    billingPortalReturnUrl: value.BILLING_PORTAL_RETURN_URL ?? `${publicBaseUrl}/`,
    logLevel: value.LOG_LEVEL,
    dispatchChunkSize: value.DISPATCH_CHUNK_SIZE,
    dispatchJobLockMs: value.DISPATCH_JOB_LOCK_MS,
    replyClassifier,
    oauth,
  };
}
