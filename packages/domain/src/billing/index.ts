export * from "./provider-objects.js";
export * from "./sync-account-plan.js";
export * from "./apply-provider-event.js";
export * from "./operate-plans.js";
