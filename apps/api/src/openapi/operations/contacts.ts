import { listContactsQuery, MAX_VERIFY_EMAILS, verifyContactsSchema } from "../../routes/contacts.js";
import { addressChecksSchema } from "../../serializers/address-check.js";
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
    method: "post",
    path: "/contacts/verify",
    operationId: "verifyContacts",
    tag: "Contacts",
    summary: "Check addresses",
    description: `1 to ${MAX_VERIFY_EMAILS.toLocaleString("en")} addresses; nothing is stored and no contact is needed. Each address is checked for syntax (the rule contact imports apply), an MX record for its domain (looked up once per domain, cached; a domain not looked up within 20 seconds counts as no answer), a disposable-mail domain (a maintained list; subdomains count) and a role account (info@, sales@, no-reply@...). The recipient's mail server is never contacted: probing it over SMTP harms the sending address's reputation. Answers one result per address, in the order given.`,
    auth: true,
    idempotent: true,
    body: { schema: verifyContactsSchema },
    responses: { 200: { description: "The checks of each address, in the order given.", schema: addressChecksSchema } },
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
