import fc from "fast-check";
import type { FixtureKind, FuzzFixtures } from "./fixtures.js";

const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9.+-]{0,15}[a-z0-9]$/), fc.constantFrom("example.com", "example.org", "mail.example.net"))
  .map(([local, domain]) => `${local.replace(/\.\.+/g, ".")}@${domain}`);
const url = fc.oneof(fc.webUrl(), fc.constantFrom("https://hooks.example.com/in", "https://example.com/return?session={CHECKOUT_SESSION_ID}"));
const contact = fc.record(
  {
    email,
    first_name: fc.string({ maxLength: 20 }),
    last_name: fc.string({ maxLength: 20 }),
    company: fc.string({ maxLength: 30 }),
    timezone: fc.constantFrom("UTC", "Europe/Paris", "America/New_York", "Not/AZone"),
  },
  { requiredKeys: ["email"] },
);

const hostname = fc.constantFrom("smtp.example.com", "mail.example.org", "imap.example.com");
const smtpCredential = fc
  .tuple(
    fc.record({
      label: fc.string({ minLength: 1, maxLength: 30 }).filter((label) => label.trim().length > 0),
      from_email: email,
      from_name: fc.option(fc.string({ maxLength: 30 })),
      smtp_host: hostname,
      smtp_port: fc.constantFrom(25, 465, 587, 2525),
      smtp_username: email,
      smtp_password: fc.string({ minLength: 1, maxLength: 40 }).filter((password) => password.trim().length > 0),
      daily_limit: fc.integer({ min: 1, max: 5000 }),
    }),
    // IMAP settings are all or nothing
    fc.option(fc.record({ imap_host: hostname, imap_port: fc.constantFrom(143, 993), imap_username: email, imap_password: fc.constant("imap-password") })),
  )
  .map(([smtp, imap]) => ({ ...smtp, ...(imap ?? {}) }));
const sequenceSteps = fc
  .array(fc.record({ subject: fc.string({ maxLength: 60 }), body_html: fc.string({ minLength: 1, maxLength: 200 }), delay_minutes: fc.integer({ min: 0, max: 100_000 }) }), {
    minLength: 1,
    maxLength: 4,
  })
  // positions 1..n; the first step goes out at once
  .map((steps) => steps.map((step, index) => ({ ...step, position: index + 1, delay_minutes: index === 0 ? 0 : step.delay_minutes })));

const ID_KINDS: Record<string, FixtureKind> = {
  campaign_id: "campaign",
  contact_id: "contact",
  contact_import_id: "contactImport",
  outreach_id: "outreach",
  webhook_id: "webhook",
  credential_id: "smtpCredential",
};

/**
 * Likelier values for properties and query parameters the document leaves
 * loose (a string that the API reads as an id, a URL or an address), so that
 * requests reach past validation: ids of the run's fixtures, URLs (the
 * loopback receiver's among them), addresses, contact rows.
 */
export function propertyHints(fixtures: FuzzFixtures, webhookUrl?: string): (property: string) => fc.Arbitrary<unknown> | undefined {
  return (property) => {
    const kind = ID_KINDS[property];
    if (kind) {
      const ids = fixtures.of(kind);
      return ids.length ? fc.constantFrom(...ids) : undefined;
    }
    if (property === "url" || property.endsWith("_url")) return webhookUrl ? fc.oneof(url, fc.constant(webhookUrl)) : url;
    if (property === "email" || property.endsWith("_email")) return email;
    if (property === "emails") return fc.array(email, { minLength: 1, maxLength: 5 });
    if (property === "contacts") return fc.array(contact, { minLength: 1, maxLength: 5 });
    if (property === "smtp_credentials") return fc.array(smtpCredential, { minLength: 1, maxLength: 3 });
    if (property === "sequence_steps") return sequenceSteps;
    if (property === "bounce_rate_threshold") return fc.integer({ min: 1, max: 25 });
    if (property === "timezone") return fc.constantFrom("UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata");
    return undefined;
  };
}
