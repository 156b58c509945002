// The business rules more than one app needs, by area; each area's README.md names its entry points.
export * from "./tx.js";
export * from "./sending/index.js";
export * from "./audience/index.js";
export * from "./tracking/index.js";
export * from "./inbound/index.js";
export * from "./webhooks/index.js";
export * from "./billing/index.js";
export * from "./operations/index.js";
export * from "./deliverability/index.js";
export * from "./mailboxes/index.js";
