// Audience: who may be mailed (blocklist, unsubscribes, MX and address checks, mail providers) (see README.md).
export * from "./blocklist.js";
export * from "./unsubscribe-contact.js";
export * from "./mx-lookup.js";
export * from "./address-checks.js";
export * from "./mail-provider.js";
export * from "./enrollment-rules.js";
