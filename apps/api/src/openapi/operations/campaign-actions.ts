import { defineOperations } from "../operation.js";

/** routes/campaign-actions.ts */
export const campaignActionOperations = defineOperations([]);
