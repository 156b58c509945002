export * from "./record-event.js";
export * from "./webhook-envelope.js";
export * from "./delivery-policy.js";
export * from "./webhook-http-client.js";
export * from "./relay-outbox.js";
export * from "./delivery-store.js";
export * from "./delivery-feed.js";
