import { defineOperations } from "../operation.js";

/** routes/contacts.ts */
export const contactOperations = defineOperations([]);
