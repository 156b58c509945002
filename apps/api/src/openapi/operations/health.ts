import { defineOperations } from "../operation.js";

/** routes/health.ts */
export const healthOperations = defineOperations([]);
