import { defineOperations } from "../operation.js";

/** routes/replies.ts */
export const replyOperations = defineOperations([]);
