import { defineOperations } from "../operation.js";

/** routes/tracking.ts */
export const trackingOperations = defineOperations([]);
