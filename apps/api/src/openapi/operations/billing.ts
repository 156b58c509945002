import { defineOperations } from "../operation.js";

/** routes/billing.ts */
export const billingOperations = defineOperations([]);
