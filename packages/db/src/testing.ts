// "@outreach/db/testing": what the test harness needs besides the main entry
// (database administration, connections of their own).
export * from "./admin.js";
export * from "./statement-hook.js";
