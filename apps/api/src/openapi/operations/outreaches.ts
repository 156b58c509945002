import { defineOperations } from "../operation.js";

/** routes/outreaches.ts */
export const outreachOperations = defineOperations([]);
