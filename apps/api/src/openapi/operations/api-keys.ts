import { defineOperations } from "../operation.js";

/** routes/api-keys.ts */
export const apiKeyOperations = defineOperations([]);
