// Tracking: signed open, click and unsubscribe links, and what they record (see README.md).
export * from "./tracking-token.js";
export * from "./tracking-links.js";
export * from "./click-tracking.js";
export * from "./delivered-links.js";
export * from "./record-open.js";
export * from "./record-click.js";
