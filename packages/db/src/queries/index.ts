// Data access by table: one module per table (or aggregate) holding every
// statement on it, each taking an Executor (see executor.ts), with its row
// types derived from declared columns (see columns.ts).
export * from "./executor.js";
export * from "./columns.js";
export * from "./campaigns.js";
export * from "./events.js";
export * from "./webhooks.js";
export * from "./webhook-deliveries.js";
export * from "./webhook-account-leases.js";
export * from "./step-sends.js";
export * from "./blocklist-entries.js";
export * from "./enrollments.js";
export * from "./enrollment-moves.js";
export * from "./smtp-credentials.js";
export * from "./sequence-steps.js";
export * from "./transaction-settings.js";
export * from "./accounts.js";
export * from "./provider-events.js";
export * from "./request-logs.js";
export * from "./idempotency-records.js";
export * from "./inbound-messages.js";
export * from "./contacts.js";
export * from "./bulk-campaigns.js";
export * from "./sealed-columns.js";
export * from "./delivered-links.js";
export * from "./enrollment-skips.js";
export * from "./reply-answers.js";
export * from "./outreaches.js";
export * from "./api-keys.js";
export * from "./campaign-stats.js";
export * from "./campaign-analytics.js";
export * from "./contact-imports.js";
export * from "./contact-import-staged-rows.js";
export * from "./domain-health-reports.js";
export * from "./oauth-connections.js";
