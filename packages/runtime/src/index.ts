export * from "./load-config.js";
export * from "./run-worker.js";
export * from "./worker-app.js";
