import { defineOperations } from "../operation.js";

/** routes/usage.ts */
export const usageOperations = defineOperations([]);
