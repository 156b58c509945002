import { defineOperations } from "../operation.js";

/** routes/blocklist.ts */
export const blocklistOperations = defineOperations([]);
