import Joi from "joi";
import { countMergeTags, REPLY_CATEGORIES, STEP_CONDITIONS } from "@outreach/core";
import { MAIL_PROVIDERS, OAUTH_PROVIDERS } from "@outreach/domain";
import { contract } from "../contracts/contract.js";
import type { CreateCampaignBody, UpdateCampaignBody } from "../contracts/generated.js";
import { pageQuery } from "../pagination.js";
import { fields, J } from "../validation.js";
import { jitterScopeField, rampField, scheduleField } from "./send-settings.js";

/** Largest jitter bound between two sends of a batch: one day. */
export const MAX_WAIT_SECONDS = 86_400;
export const MAX_STEPS = 50;
export const MAX_CREDENTIALS = 100;
/** The out-of-office waits are whole days, at most a year (the database's campaigns_ooo_days_check). */
export const MAX_OUT_OF_OFFICE_DAYS = 365;
const outOfOfficeDays = J.number().integer().min(0).max(MAX_OUT_OF_OFFICE_DAYS);
/** RFC 5322's limit on a header line. */
export const MAX_SUBJECT_LENGTH = 998;
/** 512 KiB: far above any real email, and small enough that rendering one (linear in its length) takes milliseconds. */
export const MAX_BODY_HTML_LENGTH = 524_288;
/** Each merge tag renders a contact value of up to 1,000 characters (a custom field; up to 6 times that once HTML-escaped): this bounds how far a body grows when rendered (at most about 600 KB). */
export const MAX_MERGE_TAGS = 100;
/** A year of delay between two steps is more than any sequence needs and keeps cumulative delays far from overflow. */
const MAX_DELAY_MINUTES = 525_600;
const MAX_INT = 2_147_483_647;

/** Text stored in PostgreSQL: NUL characters are refused there, so they are refused here. */
function text(max: number) {
  return J.string()
    .max(max)
    .pattern(/\u0000/, { invert: true, name: "nul" })
    .messages({ "string.pattern.invert.name": "{{#label}} must not contain NUL characters" });
}

/** Single-line text (becomes a mail header or a hostname): no NUL, CR or LF. */
function line(max: number) {
  return J.string()
    .max(max)
    .pattern(/[\u0000\r\n]/, { invert: true, name: "line" })
    .messages({ "string.pattern.invert.name": "{{#label}} must be a single line of text" });
}

const name = line(200).trim().min(1);
const host = J.string().trim().max(253).hostname();
/** Variants a step may carry (A/B/.. tests). */
export const MAX_VARIANTS = 10;
/** A DNS name with at least two labels (not an IP address): the host a tracking CNAME is made for. */
const DNS_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const trackingDomainField = J.string()
  .trim()
  .lowercase()
  .max(253)
  .pattern(DNS_NAME, { name: "host name" })
  .messages({ "string.pattern.name": "{{#label}} must be a host name such as track.example.com (no scheme, port or path)" });
export const STOP_ON_REPLY_SCOPES = ["contact", "domain"] as const;
export type StopOnReplyScope = (typeof STOP_ON_REPLY_SCOPES)[number];
const stopOnReplyScope = J.string().valid(...STOP_ON_REPLY_SCOPES);
const port = J.number().integer().min(1).max(65535);
const minWait = J.number().integer().min(0).max(MAX_WAIT_SECONDS);
const maxWait = J.number().integer().min(0).max(MAX_WAIT_SECONDS);
const bounceRateThreshold = J.number().min(0.5).max(25).precision(2);
/** Step-1 sends per day across all the campaign's inboxes; null: no cap but the inboxes' own. */
const campaignDailyLimit = J.number().integer().min(1).max(10_000_000).allow(null);
export const MAX_UNSUBSCRIBE_FOOTER_LENGTH = 500;
/** The unsubscribe line's text: one paragraph; {{unsubscribe_url}} marks where the link goes (appended when absent). */
const unsubscribeFooterField = line(MAX_UNSUBSCRIBE_FOOTER_LENGTH).trim().min(1).allow(null);
/** Any string: one that is not a UUID is an unknown outreach (404 outreach_not_found), like a missing one. */
const outreachId = J.string().max(100);

/** The categories a reply action may name: every one but other (a reply nobody could sort moves no one). */
export const REPLY_ACTION_CATEGORIES = REPLY_CATEGORIES.filter((category) => category !== "other");
/** Days a contact has, after the last step, to reply before on_completion moves them on. */
export const MAX_COMPLETION_WAIT_DAYS = 90;
export const DEFAULT_COMPLETION_WAIT_DAYS = 3;
/** Any string, like outreach_id: one that is not a UUID is an unknown campaign (404 campaign_not_found). */
const followOnCampaignId = J.string().max(100);
/** A reply of a category enrolls the contact in another campaign of the account: at most one action per category. */
const replyActionsField = J.array()
  .items(
    J.object({
      category: J.string()
        .valid(...REPLY_ACTION_CATEGORIES)
        .required(),
      move_to_campaign_id: followOnCampaignId.required(),
    }),
  )
  .max(REPLY_ACTION_CATEGORIES.length)
  .unique("category")
  .messages({ "array.unique": "{{#label}} has a second action for the same category: at most one action per category" });
/** A contact who finished every step without replying moves on wait_days after the last step; null: never. */
const onCompletionField = J.object({
  move_to_campaign_id: followOnCampaignId.required(),
  wait_days: J.number().integer().min(0).max(MAX_COMPLETION_WAIT_DAYS).default(DEFAULT_COMPLETION_WAIT_DAYS),
}).allow(null);

export const IMAP_FIELDS = ["imap_host", "imap_port", "imap_username", "imap_password"] as const;

/**
 * An OAuth2 mailbox (XOAUTH2 for SMTP and IMAP) instead of passwords: a
 * refresh token obtained elsewhere, or a connection made by POST
 * /oauth/:provider/authorize (exactly one of the two).
 */
const oauthAuthField = J.object({
  type: J.string().valid("oauth2").required(),
  provider: J.string()
    .valid(...OAUTH_PROVIDERS)
    .required(),
  refresh_token: line(4096).trim().min(1),
  connection_id: fields.id,
})
  .xor("refresh_token", "connection_id")
  .messages({
    "object.missing": "{{#label}} needs refresh_token or connection_id",
    "object.xor": "{{#label}} takes refresh_token or connection_id, not both",
  });

/** Required of a password credential; an OAuth2 one (auth) takes them from its provider's preset. */
const PASSWORD_CREDENTIAL_FIELDS = ["smtp_host", "smtp_port", "smtp_username", "smtp_password", "daily_limit"] as const;

const credentialSchema = J.object({
  label: line(200).trim().min(1).required(),
  from_email: fields.email.required(),
  from_name: line(200).trim().allow(null, ""),
  auth: oauthAuthField,
  // required without auth (see PASSWORD_CREDENTIAL_FIELDS); with auth: the provider's preset
  smtp_host: host,
  smtp_port: port,
  smtp_secure: J.boolean(),
  // with auth: defaults to from_email
  smtp_username: line(320).min(1),
  // required without auth; refused with it
  smtp_password: line(1000).min(1),
  // with auth: defaults to the provider's (50)
  daily_limit: J.number().integer().min(1).max(1_000_000),
  ramp: rampField,
  tracking_domain: trackingDomainField.allow(null),
  // the inbox's mail provider for match_recipient_provider; null: inferred (OAuth2 connection, else SMTP host)
  provider: J.string()
    .valid(...MAIL_PROVIDERS)
    .allow(null),
  imap_host: host.allow(null),
  imap_port: port.allow(null),
  imap_secure: J.boolean().allow(null),
  imap_username: line(320).min(1).allow(null),
  imap_password: line(1000).min(1).allow(null),
}).custom((value: Record<string, unknown>, helpers) => {
  if (value.auth !== undefined) return oauthCredentialCheck(value, helpers);
  const absent = PASSWORD_CREDENTIAL_FIELDS.filter((field) => value[field] === undefined);
  if (absent.length > 0) return helpers.message({ custom: absent.map((field) => `{{#label}}.${field} is required`).join(", ") });
  const given = IMAP_FIELDS.filter((field) => value[field] !== undefined && value[field] !== null);
  const missing = IMAP_FIELDS.filter((field) => !given.includes(field));
  if (given.length > 0 && missing.length > 0) {
    return helpers.message({ custom: `{{#label}} is missing ${missing.join(", ")}: IMAP settings are all or nothing (${IMAP_FIELDS.join(", ")})` });
  }
  if (given.length === 0 && value.imap_secure !== undefined && value.imap_secure !== null) {
    return helpers.message({ custom: `{{#label}} has imap_secure without IMAP settings (${IMAP_FIELDS.join(", ")})` });
  }
  return value;
}, "IMAP settings all or nothing");

/**
 * An OAuth2 credential: no password (SMTP or IMAP); IMAP is its provider's
 * unless imap_host is given (a host, with imap_port) or null (no reply detection).
 */
function oauthCredentialCheck(value: Record<string, unknown>, helpers: Joi.CustomHelpers) {
  const passwords = ["smtp_password", "imap_password"].filter((field) => value[field] !== undefined && value[field] !== null);
  if (passwords.length > 0) {
    return helpers.message({ custom: passwords.map((field) => `{{#label}}.${field} is not allowed with auth (an OAuth2 mailbox logs in with tokens)`).join(", ") });
  }
  if (value.imap_host === null && ["imap_port", "imap_username", "imap_secure"].some((field) => value[field] !== undefined && value[field] !== null)) {
    return helpers.message({ custom: "{{#label}} has IMAP settings with imap_host null (no reply detection)" });
  }
  return value;
}

// a follow-up may leave its subject empty: it is then sent as "Re: <step 1 subject>"
const subjectField = line(MAX_SUBJECT_LENGTH).allow("");
const bodyHtmlField = text(MAX_BODY_HTML_LENGTH)
  .min(1)
  .custom(
    (value: string, helpers) => (countMergeTags(value) > MAX_MERGE_TAGS ? helpers.message({ custom: `{{#label}} must contain at most ${MAX_MERGE_TAGS} merge tags` }) : value),
    "merge tag limit",
  );

const variantSchema = J.object({
  subject: subjectField.required(),
  body_html: bodyHtmlField.required(),
  // relative share of the enrollments: weights 1 and 3 send the second variant to three quarters
  weight: J.number().integer().min(1).max(1000).default(1),
});

const stepSchema = J.object({
  position: J.number().integer().min(1).max(MAX_STEPS).required(),
  // required unless the step has variants (then each variant has its own)
  subject: subjectField,
  body_html: bodyHtmlField,
  variants: J.array().items(variantSchema).min(2).max(MAX_VARIANTS),
  delay_minutes: J.number().integer().min(0).max(MAX_DELAY_MINUTES).default(0),
  // text/plain only (no HTML part, pixel or click redirect), for the step and all its variants
  text_only: J.boolean().default(false),
  // judged when the step falls due; step 1 has none (nothing was sent before it)
  condition: J.string()
    .valid(...STEP_CONDITIONS)
    .default("none"),
}).custom((step: StepInput, helpers) => {
  if (step.variants && (step.subject !== undefined || step.body_html !== undefined)) {
    return helpers.message({ custom: "{{#label}} has variants: give subject and body_html in each variant, not on the step" });
  }
  if (!step.variants && step.subject === undefined) return helpers.message({ custom: "{{#label}}.subject is required (or variants)" });
  if (!step.variants && step.body_html === undefined) return helpers.message({ custom: "{{#label}}.body_html is required (or variants)" });
  return step;
}, "subject and body, or variants");

const stepsSchema = J.array()
  .items(stepSchema)
  .min(1)
  .max(MAX_STEPS)
  .custom((steps: StepInput[], helpers) => {
    const positions = steps.map((step) => step.position).sort((a, b) => a - b);
    if (positions.some((position, index) => position !== index + 1)) {
      return helpers.message({ custom: `{{#label}} positions must be exactly 1 to ${steps.length} with no gaps or duplicates (got ${positions.join(", ")})` });
    }
    const first = steps.find((step) => step.position === 1)!;
    if (first.delay_minutes !== 0) {
      return helpers.message({ custom: "{{#label}} step 1 must have delay_minutes 0" });
    }
    // undefined when the step itself failed validation (its defaults are not applied then): reported there
    if (first.condition !== undefined && first.condition !== "none") {
      return helpers.message({ custom: `{{#label}} step 1 must have condition "none" (got "${first.condition}"): a condition is judged on the steps sent before it` });
    }
    const firstSubjects = first.variants ? first.variants.map((variant) => variant.subject) : [first.subject ?? ""];
    if (firstSubjects.some((subject) => subject.trim() === "")) {
      return helpers.message({ custom: "{{#label}} step 1 must have a subject (follow-ups without one reply to it), in every variant" });
    }
    return steps;
  }, "positions 1..n");

/** max_wait_seconds >= min_wait_seconds, checked after defaults are applied; prefix names the fields as sent ("campaign." or ""). */
export function waitRangeMessage(min: number, max: number, prefix = "campaign."): string | null {
  return max < min ? `${prefix}max_wait_seconds (${max}) must be greater than or equal to ${prefix}min_wait_seconds (${min})` : null;
}

/** "campaign." when the fields came wrapped, "" at the top level. */
function prefixOf(path: Array<string | number> = []): string {
  return path.length > 0 ? `${path.join(".")}.` : "";
}

/** The fields of POST /campaigns, wrapped as {"campaign": {...}} or at the top level (validateResource). */
export const createCampaignSchema = contract(
  "CreateCampaignBody",
  J.object({
    name: name.required(),
    outreach_id: outreachId.allow(null),
    min_wait_seconds: minWait.default(120),
    max_wait_seconds: maxWait.default(420),
    jitter_scope: jitterScopeField.default("batch"),
    schedule: scheduleField.default(null),
    verify_email_mx: J.boolean().default(false),
    skip_disposable: J.boolean().default(true),
    skip_role_accounts: J.boolean().default(false),
    match_recipient_provider: J.boolean().default(false),
    bounce_rate_threshold: bounceRateThreshold.default(8.0),
    daily_limit: campaignDailyLimit.default(null),
    unsubscribe_footer: unsubscribeFooterField.default(null),
    track_clicks: J.boolean().default(false),
    tracking_domain: trackingDomainField.allow(null).default(null),
    stop_on_reply_scope: stopOnReplyScope.default("contact"),
    stop_on_auto_reply: J.boolean().default(false),
    stop_on_click: J.boolean().default(false),
    unsubscribe_on_request: J.boolean().default(true),
    stop_on_wrong_person: J.boolean().default(true),
    out_of_office_days_after_return: outOfOfficeDays.default(1),
    out_of_office_default_delay_days: outOfOfficeDays.default(3),
    reply_actions: replyActionsField.default([]),
    on_completion: onCompletionField.default(null),
    smtp_credentials: J.array().items(credentialSchema).min(1).max(MAX_CREDENTIALS).required(),
    sequence_steps: stepsSchema.required(),
  }).custom((value: CreateCampaignInput, helpers) => {
    const message = waitRangeMessage(value.min_wait_seconds, value.max_wait_seconds, prefixOf(helpers.state.path));
    return message ? helpers.message({ custom: message }) : value;
  }, "wait range"),
);

export const UPDATABLE_CAMPAIGN_FIELDS = [
  "name",
  "outreach_id",
  "min_wait_seconds",
  "max_wait_seconds",
  "jitter_scope",
  "schedule",
  "verify_email_mx",
  "bounce_rate_threshold",
  "daily_limit",
  "unsubscribe_footer",
  "track_clicks",
  "tracking_domain",
  "stop_on_reply_scope",
  "stop_on_auto_reply",
  "stop_on_click",
  "unsubscribe_on_request",
  "stop_on_wrong_person",
  "out_of_office_days_after_return",
  "out_of_office_default_delay_days",
  "reply_actions",
  "on_completion",
  "skip_disposable",
  "skip_role_accounts",
  "match_recipient_provider",
] as const;

/** The fields of PATCH /campaigns/:id, wrapped or at the top level. */
export const updateCampaignSchema = contract(
  "UpdateCampaignBody",
  J.object({
    name,
    outreach_id: outreachId.allow(null),
    min_wait_seconds: minWait,
    max_wait_seconds: maxWait,
    jitter_scope: jitterScopeField,
    schedule: scheduleField,
    verify_email_mx: J.boolean(),
    skip_disposable: J.boolean(),
    skip_role_accounts: J.boolean(),
    match_recipient_provider: J.boolean(),
    bounce_rate_threshold: bounceRateThreshold,
    daily_limit: campaignDailyLimit,
    unsubscribe_footer: unsubscribeFooterField,
    track_clicks: J.boolean(),
    tracking_domain: trackingDomainField.allow(null),
    stop_on_reply_scope: stopOnReplyScope,
    stop_on_auto_reply: J.boolean(),
    stop_on_click: J.boolean(),
    unsubscribe_on_request: J.boolean(),
    stop_on_wrong_person: J.boolean(),
    out_of_office_days_after_return: outOfOfficeDays,
    out_of_office_default_delay_days: outOfOfficeDays,
    reply_actions: replyActionsField,
    on_completion: onCompletionField,
  })
    .min(1)
    .messages({ "object.min": `{{#label}} must contain at least one of ${UPDATABLE_CAMPAIGN_FIELDS.join(", ")}` }),
);

export const listCampaignsQuery = contract("ListCampaignsQuery", Joi.object(pageQuery));

export const previewQuery = contract(
  "PreviewCampaignQuery",
  Joi.object({
    contact_id: Joi.string().max(100).required(),
    position: Joi.number().integer().min(1).max(MAX_INT).default(1),
  }),
);

/** The validated fields of POST /campaigns (generated from createCampaignSchema). */
export type CreateCampaignInput = CreateCampaignBody;
/** The validated fields of PATCH /campaigns/:id (generated from updateCampaignSchema). */
export type UpdateCampaignInput = UpdateCampaignBody;
export type CredentialInput = CreateCampaignBody["smtp_credentials"][number];
export type StepInput = CreateCampaignBody["sequence_steps"][number];
export type VariantInput = NonNullable<StepInput["variants"]>[number];
