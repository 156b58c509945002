export * from "./client.js";
export * from "./migrate.js";
export * from "./paths.js";
export * from "./seed.js";
export * from "./generated/client.js";
