import { defineOperations } from "../operation.js";

/** routes/webhooks.ts */
export const webhookOperations = defineOperations([]);
