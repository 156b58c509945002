// Drops test databases left by killed runs and builds the migrated template once.
import { dropLeftoverTestDatabases, ensureTemplateDatabase } from "../database.js";

const dropped = await dropLeftoverTestDatabases();
const template = await ensureTemplateDatabase();
console.log(`[outreach] template database ${template} ready${dropped ? ` (dropped ${dropped} leftover test databases)` : ""}`);
