import { defineOperations } from "../operation.js";

/** routes/docs.ts */
export const docsOperations = defineOperations([]);
