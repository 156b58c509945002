// Deliverability: sender-domain health (MX, SPF, DKIM, DMARC, DNS blocklists) (see README.md).
export * from "./dns-lookups.js";
export * from "./sender-provider.js";
export * from "./spf.js";
export * from "./domain-health.js";
export * from "./domain-health-reports.js";
