import { defineOperations } from "../operation.js";

/** routes/contact-imports.ts */
export const contactImportOperations = defineOperations([]);
