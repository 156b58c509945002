import { defineOperations } from "../operation.js";

/** routes/relay-reports.ts */
export const relayReportOperations = defineOperations([]);
