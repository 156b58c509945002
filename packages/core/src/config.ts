import Joi from "joi";

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
  redisUrl: string;
  queuePrefix: string;
  publicBaseUrl: string;
  docsUrl: string;
  trustProxy: boolean;
  rateLimitPerMinute: number;
  signupLimitPerHour: number;
  imapPollIntervalSeconds: number;
  dnsServers: string[];
  webhookAllowPrivateUrls: boolean;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  encryptionKey: Buffer;
  encryptionKeyIsDevelopment: boolean;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiBase: string | undefined;
  relayWebhookSecret: string | undefined;
  logLevel: string;
}

const boolean = Joi.boolean().truthy("1", "yes", "on").falsy("0", "no", "off", "");
const hostPort = Joi.string().pattern(/^(\[[0-9a-fA-F:]+\]|[^\s:,]+)(:\d{1,5})?$/, "host:port");

const schema = Joi.object({
  NODE_ENV: Joi.string().valid("development", "production", "test").default("development"),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  HEALTH_PORT: Joi.number().integer().min(0).max(65535),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ["postgres", "postgresql"] })
    .default("postgresql://postgres@127.0.0.1:5432/outreach"),
  REDIS_URL: Joi.string().uri({ scheme: ["redis", "rediss"] }).default("redis://127.0.0.1:6379"),
  QUEUE_PREFIX: Joi.string().pattern(/^[A-Za-z0-9_.-]+$/, "letters, digits, _ . -").max(64).default("outreach"),
  PUBLIC_BASE_URL: Joi.string().uri({ scheme: ["http", "https"] }),
  DOCS_URL: Joi.string().uri({ scheme: ["http", "https"] }),
  TRUST_PROXY: boolean.default(false),
  RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(60),
  SIGNUP_LIMIT_PER_HOUR: Joi.number().integer().min(1).default(5),
  IMAP_POLL_INTERVAL_SECONDS: Joi.number().integer().min(1).default(60),
  DNS_SERVERS: Joi.string().allow("").default(""),
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean.default(false),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(1).default(10_000),
  WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(1).default(10_000),
  ENCRYPTION_KEY: Joi.string().base64(),
  STRIPE_SECRET_KEY: Joi.string(),
  STRIPE_WEBHOOK_SECRET: Joi.string(),
  STRIPE_API_BASE: Joi.string().uri({ scheme: ["http", "https"] }),
  RELAY_WEBHOOK_SECRET: Joi.string(),
  LOG_LEVEL: Joi.string().valid("error", "warn", "info", "http", "verbose", "debug", "silly").default("info"),
}).unknown(true);

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

/** Reads and validates the environment. Throws ConfigError naming the first bad variable. */
export function loadConfig(app: AppName, env: NodeJS.ProcessEnv = process.env): Config {
  // Treat empty strings as unset, the way shells and ConfigMaps produce them.
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== "") input[key] = value;

  const { value, error } = schema.validate(input, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0]!;
    const variable = String(detail.path[0] ?? "unknown");
    const got = input[variable];
    throw new ConfigError(variable, `Invalid configuration: ${variable}: ${detail.message.replace(/^"[^"]+" /, "")} (got ${JSON.stringify(got)})`);
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

  let encryptionKey: Buffer;
  const encryptionKeyIsDevelopment = !value.ENCRYPTION_KEY;
  if (value.ENCRYPTION_KEY) {
    encryptionKey = Buffer.from(value.ENCRYPTION_KEY, "base64");
    if (encryptionKey.length !== 32) {
      throw new ConfigError("ENCRYPTION_KEY", `Invalid configuration: ENCRYPTION_KEY: must be 32 bytes in base64 (got ${encryptionKey.length} bytes)`);
    }
  } else {
    if (value.NODE_ENV === "production") {
      throw new ConfigError("ENCRYPTION_KEY", "Invalid configuration: ENCRYPTION_KEY: required when NODE_ENV=production");
    }
    encryptionKey = Buffer.from(DEVELOPMENT_ENCRYPTION_KEY, "base64");
  }

  const port = value.PORT as number;
  const publicBaseUrl = stripTrailingSlash(value.PUBLIC_BASE_URL ?? `http://localhost:${port}`);
  const healthPort = app === "api" ? port : ((value.HEALTH_PORT as number | undefined) ?? DEFAULT_HEALTH_PORTS[app]);

  return {
    nodeEnv: value.NODE_ENV,
    port,
    healthPort,
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    queuePrefix: value.QUEUE_PREFIX,
    publicBaseUrl,
    docsUrl: stripTrailingSlash(value.DOCS_URL ?? `${publicBaseUrl}/docs`),
    trustProxy: value.TRUST_PROXY,
    rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
    signupLimitPerHour: value.SIGNUP_LIMIT_PER_HOUR,
    imapPollIntervalSeconds: value.IMAP_POLL_INTERVAL_SECONDS,
    dnsServers,
    webhookAllowPrivateUrls: value.WEBHOOK_ALLOW_PRIVATE_URLS,
    webhookTimeoutMs: value.WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: value.WEBHOOK_RETRY_BASE_MS,
    encryptionKey,
    encryptionKeyIsDevelopment,
    stripeSecretKey: value.STRIPE_SECRET_KEY,
    stripeWebhookSecret: value.STRIPE_WEBHOOK_SECRET,
    stripeApiBase: value.STRIPE_API_BASE,
    relayWebhookSecret: value.RELAY_WEBHOOK_SECRET,
    logLevel: value.LOG_LEVEL,
  };
}
