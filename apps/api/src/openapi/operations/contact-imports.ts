import { CUSTOM_FIELD_KEY_PATTERN, MAX_CUSTOM_FIELD_KEYS, MAX_CUSTOM_FIELD_STRING, MAX_CUSTOM_FIELDS_BYTES } from "../../custom-fields.js";
import { createContactImportSchema, listContactImportsQuery, MAX_IMPORT_BODY, MAX_IMPORT_ROWS } from "../../routes/contact-imports.js";
import { contactImportSchema, contactImportSummarySchema } from "../../serializers/contact-import.js";
import { contactRowSchema, MAX_REPORTED_INVALID_ROWS } from "../../services/parse-contact-rows.js";
import { array, nullable, type JsonSchema } from "../json-schema.js";
import { joiToJsonSchema } from "../joi-schema.js";
import { defineOperations } from "../operation.js";

// custom_fields is checked in code (custom-fields.ts), not by the row's joi schema: its rules, as JSON Schema.
const customFields = nullable({
  type: "object",
  propertyNames: { pattern: CUSTOM_FIELD_KEY_PATTERN.source },
  maxProperties: MAX_CUSTOM_FIELD_KEYS,
  additionalProperties: { type: ["string", "number", "boolean"] },
  description: `The values of {{custom.<key>}} tags: a flat object of at most ${MAX_CUSTOM_FIELD_KEYS} keys, whose values are strings (trimmed, at most ${MAX_CUSTOM_FIELD_STRING} characters, no NUL), finite numbers or booleans, at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as compact JSON. null is no custom fields. A re-import merges them key by key over the stored ones.`,
});

function importBodySchema(): JsonSchema {
  const row = joiToJsonSchema(contactRowSchema) as { properties: Record<string, JsonSchema> };
  const body = joiToJsonSchema(createContactImportSchema) as { properties: Record<string, JsonSchema> };
  const rows = array(
    { ...row, properties: { ...row.properties, custom_fields: customFields } },
    {
      minItems: 1,
      maxItems: MAX_IMPORT_ROWS,
      description: `The rows. A row that breaks these rules does not fail the import: it is counted in invalid_count and reported in invalid_rows (the first ${MAX_REPORTED_INVALID_ROWS}) with its reason.`,
    },
  );
  return { ...body, properties: { ...body.properties, contacts: rows }, required: ["contacts"] };
}

/** routes/contact-imports.ts: contacts arrive in imports. */
export const contactImportOperations = defineOperations([
  {
    method: "post",
    path: "/contact_imports",
    operationId: "createContactImport",
    tag: "Contact Imports",
    summary: "Import contacts",
    description: [
      `Up to ${MAX_IMPORT_ROWS.toLocaleString("en")} rows in a body of up to ${MAX_IMPORT_BODY.label}, sent as \`{"contact_import": {"name", "contacts": [...]}}\` or with the fields at the top level. The body is read as it streams in and its rows are merged into contacts in one transaction once the whole body has proved good: a body refused for any reason writes no contact. No rows (or no \`contacts\`) is 422 no_contacts_provided.`,
      "Emails are trimmed and lower-cased; one contact per address per account. A later non-empty value updates a field, an empty one never erases it; unsubscribed contacts stay unsubscribed.",
    ].join("\n\n"),
    auth: true,
    idempotent: true,
    body: { schema: importBodySchema(), wrapper: "contact_import" },
    responses: { 201: { description: "The import with its counts and its invalid rows.", schema: contactImportSchema } },
    errors: ["no_contacts_provided"],
  },
  {
    method: "get",
    path: "/contact_imports",
    operationId: "listContactImports",
    tag: "Contact Imports",
    summary: "List contact imports",
    auth: true,
    paged: true,
    query: listContactImportsQuery,
    responses: { 200: { description: "A page of imports, newest first, without invalid_rows.", schema: array(contactImportSummarySchema) } },
  },
  {
    method: "get",
    path: "/contact_imports/:id",
    operationId: "getContactImport",
    tag: "Contact Imports",
    summary: "Get a contact import",
    auth: true,
    params: { id: "The import's id." },
    responses: { 200: { description: "The import with its invalid rows.", schema: contactImportSchema } },
    errors: ["contact_import_not_found"],
  },
]);
