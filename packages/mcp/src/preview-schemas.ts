import type { JsonSchema } from "./json-schema.js";

/**
 * What a tool that sends answers without confirm: true (structuredContent with
 * preview: true). The API's tool handlers build these; the schemas are the
 * tools' output contract, so they live with the catalog.
 */
const str = (description?: string): JsonSchema => ({ type: "string", ...(description ? { description } : {}) });
const int = (description?: string): JsonSchema => ({ type: "integer", minimum: 0, ...(description ? { description } : {}) });
const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, "null"] });
const object = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});
const dateTime = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });

const renderedStep = object({
  position: int("The step's position (1: the first email)."),
  to: str("The address it is rendered for."),
  contact_id: nullable(str("The contact rendered for; null when the address is no contact of the account.")),
  subject: str(),
  text: str("The plain-text body."),
  html: str(),
  missing_tags: { type: "array", items: str(), description: "Merge tags with no value for this contact: they render empty." },
});

const inbox = object({
  id: str("The SMTP credential's id."),
  from_email: str(),
  daily_limit: int("Emails per day from this inbox, today (after any warm-up ramp)."),
  sends_left_today: int("What today's daily_limit leaves, in the inbox's schedule day."),
});

const summary = str("One sentence saying what confirm: true would do: show it to the user.");
const previewFlag = { const: true, description: "Nothing was done: this is what confirm: true would do." };

export const PREVIEW_SCHEMAS: Record<string, JsonSchema> = {
  dispatch_campaign: object({
    preview: previewFlag,
    summary,
    campaign_id: str(),
    campaign_name: str(),
    campaign_status: str(),
    batch_number: int("The batch that would be dispatched."),
    contacts: int("Enrolled contacts of the batch that would get step 1."),
    emails: object({
      step_1: int("Emails of step 1: one per contact."),
      follow_ups_at_most: int("Follow-up emails if nobody replies, bounces or unsubscribes."),
      total_at_most: int(),
    }),
    inboxes: { type: "array", items: inbox, description: "The enabled inboxes the sends rotate over." },
    first_send_at: nullable(dateTime("When the first email would go out at the earliest (the schedule's next opening); null when it would be held.")),
    held_reason: {
      enum: ["campaign_paused", "no_enabled_credentials", "no_steps", "daily_limit_reached", null],
      description: "Why a confirmed dispatch would queue nothing yet; null when it would send.",
    },
    plan: object({
      slug: str(),
      monthly_limit: int(),
      sends_this_period: int(),
      sends_left: int("Sends the plan has left this billing period."),
      period_end: dateTime("When the allowance renews."),
    }),
    step_1: nullable(renderedStep),
  }),
  test_send: object({
    preview: previewFlag,
    summary,
    campaign_id: str(),
    emails: { type: "array", items: str(), description: "The addresses that would receive the test." },
    skipped: { type: "array", items: object({ email: str(), reason: { const: "unsubscribed" } }) },
    emails_per_address: int("Every step, and every A/B variant of a step."),
    total_emails: int(),
    inbox: nullable(object({ id: str(), from_email: str() })),
    allowance: object({ limit: int("Test addresses per account per UTC day."), remaining: int() }),
    step_1: nullable(renderedStep),
  }),
  answer_reply: object({
    preview: previewFlag,
    summary,
    reply_id: str(),
    to: str("Who the answer goes to: the reply's sender."),
    inbox: inbox,
    subject: str(),
    body_html: str(),
    body_text: str(),
  }),
};
