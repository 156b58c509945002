// Audience: who may be mailed (blocklist, unsubscribes, MX checks) (see README.md).
export * from "./blocklist.js";
export * from "./unsubscribe-contact.js";
export * from "./mx-lookup.js";
export * from "./enrollment-rules.js";
