import { defineOperations } from "../operation.js";

/** routes/events.ts */
export const eventOperations = defineOperations([]);
