/**
 * The tool catalog: every tool the MCP server offers, over HTTP (POST /mcp) and
 * over stdio alike. A tool does the work of one REST operation (`operationId`)
 * and takes that operation's request as its input: its path parameters (renamed
 * here, `id` -> `campaign_id`), query parameters and body fields, with the
 * schemas of the API's OpenAPI document (see build-tools.ts). What a tool adds
 * of its own is listed in `toolOnlyInputs` below, and nothing else.
 */
export interface ToolAnnotations {
  /** changes nothing */
  readOnlyHint: boolean;
  /** may destroy or overwrite data, or do what cannot be undone (sending mail) */
  destructiveHint: boolean;
  /** a repeated call with the same arguments has no further effect */
  idempotentHint: boolean;
  /** reaches the world outside the account (mailboxes, receivers) */
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  /** written for a model: what it does, when to use it, what it costs */
  description: string;
  annotations: ToolAnnotations;
  /** the REST operation whose request it takes and whose work it does */
  operationId: string;
  /** the operation's path parameters, by the name the tool gives them */
  pathParams?: Record<string, string>;
  /** descriptions of inputs the document leaves undescribed (query parameters, path parameters) */
  inputDescriptions?: Record<string, string>;
  /**
   * "sends": the tool sends mail or spends the plan's sends; without confirm: true it
   * changes nothing and answers a preview (structuredContent.preview: true).
   */
  confirm?: "sends";
  /** the REST answer is a list page: the tool answers {data, has_more, next_starting_after} */
  paged?: boolean;
}

/** Inputs a tool has that its REST operation does not: the confirmation rule's. */
export const toolOnlyInputs = {
  confirm: {
    type: "boolean",
    default: false,
    description:
      "false (the default): change nothing and answer a preview of what would happen (preview: true, with the counts). true: do it. Call without confirm first, show the preview to the user, and call again with confirm: true only once they agree.",
  },
  idempotency_key: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    pattern: "^[\\x21-\\x7e]+$",
    description:
      "Leave it out: the key is derived from the arguments, so repeating the same call within 24 hours answers the first result and never acts twice. Give a new value only to deliberately do the same thing again.",
  },
} as const;

const campaignId = { campaign_id: "id" };
const describeCampaignId = { campaign_id: "The campaign's id (from list_campaigns or create_campaign)." };
const describePage = {
  limit: "How many to return (the newest first).",
  starting_after: "To read the next page: the next_starting_after of the previous result.",
};

const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "list_campaigns",
    title: "List campaigns",
    description:
      "Lists the account's campaigns, newest first: each one's id, name, status (pending, active or paused) and creation time. Use it to find a campaign's id; get_campaign has the details and stats. Read-only; no cost. Paginated: when has_more is true, call again with starting_after set to next_starting_after.",
    annotations: readOnly,
    operationId: "listCampaigns",
    inputDescriptions: describePage,
    paged: true,
  },
  {
    name: "get_campaign",
    title: "Get a campaign and its stats",
    description:
      "One campaign in full: its steps, sending inboxes (SMTP credentials, passwords never shown), schedule and send settings, and its stats (enrolled, sent, opened, clicked, replied, bounced, unsubscribed). Use it to check a campaign before dispatching it, or to report how it is doing. Read-only; no cost.",
    annotations: readOnly,
    operationId: "getCampaign",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
  },
  {
    name: "create_campaign",
    title: "Create a campaign",
    description:
      "Creates a campaign (status pending) with its sequence steps, the inboxes it sends from (SMTP, optionally IMAP for reply detection) and optionally a schedule. Nothing is sent: contacts are added with import_contacts and enroll_contacts, and mail goes out only with dispatch_campaign. Each call creates a new campaign (counted against the account's campaign quota), so do not repeat it to retry a success.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    operationId: "createCampaign",
  },
  {
    name: "pause_campaign",
    title: "Pause a campaign",
    description:
      "Pauses an active campaign: no further email of it is sent until resume_campaign (sends already handed to an SMTP server may still arrive). Use it when the user wants sending stopped now. Repeating it on a paused campaign answers an error (campaign_not_active), changing nothing.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    operationId: "pauseCampaign",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
  },
  {
    name: "resume_campaign",
    title: "Resume a campaign",
    description:
      "Resumes a paused campaign: its held sends are planned again from now, within the schedule and daily limits, and mail starts going out again. Use it only when the user asks to continue sending.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    operationId: "resumeCampaign",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
  },
  {
    name: "import_contacts",
    title: "Import contacts",
    description:
      "Adds or updates contacts of the account by email address (first_name, last_name, company, custom fields). Invalid rows are reported in the result, not fatal. It answers a contact_import whose id enroll_contacts takes. Sends nothing. Up to 250,000 contacts per call; an agent should send at most a few thousand at a time.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    operationId: "createContactImport",
  },
  {
    name: "enroll_contacts",
    title: "Enroll an import's contacts in a campaign",
    description:
      "Enrolls every valid contact of a contact import (import_contacts' id) in a campaign, as one batch (batch_number, default 1). Contacts already enrolled, unsubscribed, or taken by another campaign (cross-campaign duplicates) are counted, not enrolled; blocklisted addresses and domains without a mail server are skipped later, at dispatch. Sends nothing: dispatch_campaign sends a batch. Repeating it enrolls nobody twice.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    operationId: "enrollContactImport",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
  },
  {
    name: "dispatch_campaign",
    title: "Dispatch a batch (sends email)",
    description:
      "Starts sending a campaign's batch of enrolled contacts (the lowest pending batch unless batch_number is given): step 1 to every contact of the batch within the schedule and each inbox's daily limit, then the follow-ups to those who do not reply. This sends real email and spends the plan's monthly sends. Without confirm: true it sends nothing and answers a preview: how many emails to how many contacts, from which inboxes, the first send time, the plan allowance left, and step 1 rendered for one contact. Show that to the user and call again with confirm: true only when they agree.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    operationId: "dispatchCampaign",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
    confirm: "sends",
  },
  {
    name: "test_send",
    title: "Send test emails",
    description:
      "Sends every step of the campaign, right away, to up to 25 addresses of the user's own (not contacts), so they can check how it looks in a real inbox. Does not count against the plan, but each address counts against a daily allowance of 100 test addresses. Without confirm: true it sends nothing and answers a preview (the addresses, the emails, the inbox, the allowance left and step 1 rendered).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    operationId: "testSendCampaign",
    pathParams: campaignId,
    inputDescriptions: describeCampaignId,
    confirm: "sends",
  },
  {
    name: "preview_campaign",
    title: "Preview a campaign for a contact",
    description:
      "Renders every step of a campaign (subject, HTML and text) as one contact of the account would receive it, and lists merge tags that have no value for that contact (they would render empty). Use it to check personalization before a dispatch. Read-only; sends nothing.",
    annotations: readOnly,
    operationId: "previewCampaign",
    pathParams: campaignId,
    inputDescriptions: {
      ...describeCampaignId,
      contact_id: "The contact to render for: a contact of the account (an import's rows list their ids).",
      position: "The step shown as `selected` (1 = the first email).",
    },
  },
  {
    name: "send_forecast",
    title: "Forecast a campaign's sends",
    description:
      "How many emails of a campaign are planned per day for the next days (step 1 and follow-ups), how many are overdue, and how many enrolled contacts are not dispatched yet. Use it to answer 'when will this go out' or to check daily limits. Read-only.",
    annotations: readOnly,
    operationId: "getSendForecast",
    pathParams: campaignId,
    inputDescriptions: { ...describeCampaignId, days: "How many days from today to forecast." },
  },
  {
    name: "get_campaign_analytics",
    title: "Get a campaign's analytics",
    description:
      "A campaign's sends and what they drew, per step, per A/B variant or per day (group_by), with totals: sent, opened, clicked, replied (and replies per category), bounced, unsubscribed and their rates in percent of sent. Each open, click, reply, bounce and unsubscribe is credited to the step last sent before it; days are in the campaign's time zone, and from/to (YYYY-MM-DD, inclusive) limit the days counted. Use it to compare steps or variants, or to report a campaign's results over time. Opens are unreliable (image blocking, privacy proxies): judge by clicks and replies. Read-only.",
    annotations: readOnly,
    operationId: "getCampaignAnalytics",
    pathParams: campaignId,
    inputDescriptions: {
      ...describeCampaignId,
      group_by: "step: one group per step; variant: one per A/B variant of each step (variant_id null for a step without variants); day: one per day.",
      from: "The first day counted (YYYY-MM-DD, in the campaign's time zone); leave it out to count from the start.",
      to: "The last day counted (YYYY-MM-DD, inclusive); leave it out to count up to now.",
    },
  },
  {
    name: "list_replies",
    title: "List replies",
    description:
      "Lists the replies detected in the account's inboxes, newest first: who replied, to which campaign, the subject and the start of the text, whether it was an auto-reply, and its category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other). Filter by campaign_id, kind or category. Read-only. Paginated: when has_more is true, call again with starting_after set to next_starting_after. Use get_reply for a reply's whole text before answering it.",
    annotations: readOnly,
    operationId: "listReplies",
    inputDescriptions: {
      ...describePage,
      campaign_id: "Only the replies to this campaign's emails.",
      kind: "reply: a person's answer; auto_reply: out-of-office and other automatic answers.",
      category: "Only the replies of this category, e.g. interested to find the warm leads.",
    },
    paged: true,
  },
  {
    name: "get_reply",
    title: "Get a reply",
    description:
      "One reply in full (its whole text without the quoted history, who sent it, the contact and campaign it answers) with the answers already sent to it. Read it before answer_reply. Read-only.",
    annotations: readOnly,
    operationId: "getReply",
    pathParams: { reply_id: "id" },
    inputDescriptions: { reply_id: "The reply's id (from list_replies)." },
  },
  {
    name: "categorize_reply",
    title: "Correct a reply's category",
    description:
      "Sets a reply's category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other) when the automatic one is wrong; it becomes the manual category, which nothing automatic overrides. The category's actions run: unsubscribe_request unsubscribes the contact (if the campaign says so), out_of_office delays the next email to the return date, and the campaign's reply_actions may move the contact to another campaign. Setting the same category again changes nothing.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    operationId: "categorizeReply",
    pathParams: { reply_id: "id" },
    inputDescriptions: { reply_id: "The reply's id (from list_replies).", category: "The category the reply really has." },
  },
  {
    name: "answer_reply",
    title: "Answer a reply (sends email)",
    description:
      "Sends an answer to a reply, from the inbox that received it, in the same thread (Re: subject). It counts against that inbox's daily limit. Without confirm: true it sends nothing and answers a preview (to whom, from which inbox, the subject, the inbox's sends left today). Show it to the user and call again with confirm: true only when they agree.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    operationId: "answerReply",
    pathParams: { reply_id: "id" },
    inputDescriptions: { reply_id: "The reply's id (from list_replies)." },
    confirm: "sends",
  },
  {
    name: "list_webhooks",
    title: "List webhooks",
    description: "Lists the account's webhook endpoints (URL, event_filters, disabled_at, consecutive failures), newest first. Secrets are never shown. Read-only. Paginated like list_campaigns.",
    annotations: readOnly,
    operationId: "listWebhooks",
    inputDescriptions: describePage,
    paged: true,
  },
  {
    name: "list_oauth_connections",
    title: "List OAuth mailboxes",
    description:
      "Lists the account's OAuth2 mailbox connections (Google, Microsoft): address, status (connected, or auth_failed with the reason: the mailbox must be reconnected) and how many inboxes use each, newest first. Tokens are never shown. Read-only. Paginated like list_campaigns.",
    annotations: readOnly,
    operationId: "listOAuthConnections",
    inputDescriptions: describePage,
    paged: true,
  },
  {
    name: "create_webhook",
    title: "Create a webhook",
    description:
      "Registers an HTTPS endpoint of the user's own systems to receive signed events (event_filters: enrollment.sent, .opened, .replied, .bounced, .unsubscribed, credential.disabled, campaign.paused, or * for all of them; enrollment.clicked, reply.categorized, credential.auth_failed and credential.paused only when named). The result shows the signing secret once: give it to the user, it cannot be read again. Each call creates another endpoint.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    operationId: "createWebhook",
  },
  {
    name: "get_usage",
    title: "Get API usage",
    description: "The account's API traffic over the last days: requests and errors per client kind (direct, mcp, sdk) and per day. Read-only.",
    annotations: readOnly,
    operationId: "getApiUsage",
    inputDescriptions: { days: "How many days back to count." },
  },
  {
    name: "get_plan_usage",
    title: "Get the plan's sends",
    description: "The account's plan, its monthly send limit and the sends used in the current billing period. Use it before a large dispatch. Read-only.",
    annotations: readOnly,
    operationId: "getBillingUsage",
  },
  {
    name: "check_domain_health",
    title: "Check a sender domain",
    description:
      "Checks the DNS of a domain the account sends from as receiving mail servers read it: mx, spf, dkim, dmarc and blocklist (the sending hosts' addresses on DNS blocklists), each pass, warn or fail with what was found and a one-line fix; status is the worst. Use it when get_campaign shows a sender_domain_failing warning or a credential's domain_health is fail, or before sending from a new domain, and give the user the fixes (they change their DNS; this tool changes nothing). A report under 24 hours old is answered as stored; refresh: true checks again. Read-only.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    operationId: "getDomainHealth",
    pathParams: { domain: "domain" },
    inputDescriptions: {
      domain: "The domain after the @ of the sending address, e.g. example.com.",
      refresh: "true: check now even when a report under 24 hours old is stored.",
      smtp_host: "The SMTP host mail from the domain goes through, when no inbox of the account sends from it yet (e.g. smtp.gmail.com).",
      dkim_selector: "The DKIM selector the user's mail provider signs with, when it is not a usual one (the part before ._domainkey).",
    },
  },
  {
    name: "add_to_blocklist",
    title: "Block addresses or domains",
    description:
      "Adds email addresses and/or domains to the account's blocklist: no campaign sends to them again, including sends already planned. Use it when someone asks not to be contacted. Repeating it is harmless (already_blocked counts them).",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    operationId: "addBlocklistEntries",
  },
  {
    name: "verify_contacts",
    title: "Check email addresses",
    description:
      "Checks up to 1,000 email addresses before importing or enrolling them: syntax, a mail server (MX) for the domain, a disposable-mail domain, a role account (info@, sales@...). Each gets status valid, risky (disposable, role, or no DNS answer) or invalid (bad syntax or no mail server) with a short reason. The results are in data, in the order given. Stores and sends nothing; the recipients' servers are never contacted. Read-only.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    operationId: "verifyContacts",
    // answered as one page (data, has_more false): a tool's result is an object
    paged: true,
  },
];

export function toolNamed(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
