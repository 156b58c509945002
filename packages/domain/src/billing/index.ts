export * from "./provider-objects.js";
export * from "./sync-account-plan.js";
export * from "./apply-provider-event.js";
export * from "./operate-plans.js";
export * from "./plan-usage.js";
export * from "./account-quotas.js";
export * from "./operate-quotas.js";
