import { defineOperations } from "../operation.js";

/** routes/public.ts */
export const publicOperations = defineOperations([]);
