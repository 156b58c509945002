import { listContactsQuery } from "../../routes/contacts.js";
import { contactSchema } from "../../serializers/contact.js";
import { array } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** routes/contacts.ts: contacts are created by contact imports. */
export const contactOperations = defineOperations([
  {
    method: "get",
    path: "/contacts",
    operationId: "listContacts",
    tag: "Contacts",
    summary: "List contacts",
    description: "`email` finds the contact with that address (compared trimmed and lower-cased). Contacts are created and updated by contact imports.",
    auth: true,
    paged: true,
    query: listContactsQuery,
    responses: { 200: { description: "A page of contacts, newest first.", schema: array(contactSchema) } },
  },
  {
    method: "get",
    path: "/contacts/:id",
    operationId: "getContact",
    tag: "Contacts",
    summary: "Get a contact",
    auth: true,
    params: { id: "The contact's id." },
    responses: { 200: { description: "The contact.", schema: contactSchema } },
    errors: ["contact_not_found"],
  },
]);
