// Operations: what operators run (suspensions, key re-encryption, the schedule view, retention) (see README.md).
export * from "./operate-suspensions.js";
export * from "./reencrypt-secrets.js";
export * from "./schedule-overview.js";
export * from "./retention/index.js";
