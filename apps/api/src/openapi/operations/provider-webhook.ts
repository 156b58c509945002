import { defineOperations } from "../operation.js";

/** routes/provider-webhook.ts */
export const providerWebhookOperations = defineOperations([]);
