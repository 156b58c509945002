import type { Contact } from "@outreach/db";

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
