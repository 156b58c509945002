export * from "./client.js";
export * from "./migrate.js";
export * from "./paths.js";
export * from "./seed.js";
export * from "./generated/client.js";
export * from "./busy-error.js";
export * from "./session-settings.js";
export * from "./raw-pool.js";
