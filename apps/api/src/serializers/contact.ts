import type { Contact } from "@outreach/db";
import { MAX_CUSTOM_FIELD_KEYS, MAX_CUSTOM_FIELD_STRING } from "../custom-fields.js";
import { component, dateTime, nullable, object, record, string, uuid } from "../openapi/json-schema.js";

export function serializeContact(contact: Contact) {
  return {
    id: contact.id,
    email: contact.email,
    first_name: contact.firstName,
    last_name: contact.lastName,
    company: contact.company,
    timezone: contact.timezone,
    // the values of {{custom.<key>}} tags
    custom_fields: contact.customFields ?? {},
    unsubscribed_at: contact.unsubscribedAt,
    created_at: contact.createdAt,
    updated_at: contact.updatedAt,
  };
}

// ------------------------------------------------------------ response schemas --

export const contactSchema = component(
  "Contact",
  object({
    id: uuid(),
    email: string({ description: "Trimmed and lower-cased; one contact per address per account. The address may hold non-ASCII characters." }),
    first_name: nullable(string()),
    last_name: nullable(string()),
    company: nullable(string()),
    timezone: nullable(string({ description: "An IANA time zone name; sends follow it when the campaign's schedule says use_contact_timezone." })),
    custom_fields: record(
      { type: ["string", "number", "boolean"] },
      `The values of {{custom.<key>}} tags: at most ${MAX_CUSTOM_FIELD_KEYS} keys, strings of at most ${MAX_CUSTOM_FIELD_STRING} characters, finite numbers or booleans.`,
    ),
    unsubscribed_at: nullable(dateTime()),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
