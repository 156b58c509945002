/**
 * The API's types, generated from the API's OpenAPI document: pnpm --filter @outreach/sdk generate
 * Do not edit by hand: regenerate after the API changes.
 */

export interface paths {
    "/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active API keys
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Issue an API key
         * @description A further key of the account, within its `api_keys` quota (active keys). `plaintext` is shown only in this answer.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description The key stops working at once on every API replica. The account's last active key cannot be revoked: issue a new one first.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the account's plan, subscription and quotas */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the sends of the current billing period
         * @description Sends are counted per billing period and checked at dispatch. A paid plan's period is its subscription's; a free account's runs monthly from its signup time.
         */
        get: operations["getBillingUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start buying a plan
         * @description A subscription-mode checkout session for the plan's price; the buyer pays at `url` and comes back to `success_url` (or `cancel_url`). Only public, priced plans that are not archived are sold (GET /plans lists them). An account that already has a subscription changes plans in the portal instead (422 unprocessable), so nobody pays twice. 503 service_unavailable when the payment provider fails.
         */
        post: operations["createCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the customer portal
         * @description A customer-portal session: payment methods, invoices, switching between the paid plans, cancelling. 503 service_unavailable when the payment provider fails.
         */
        post: operations["createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocklist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List blocklist entries
         * @description `value` finds one entry by its exact value (normalised as when added).
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listBlocklistEntries"];
        put?: never;
        /**
         * Block addresses and domains
         * @description Emails are trimmed and lower-cased; domains are host names, lower-cased, a leading `@` and a trailing `.` dropped. An address is blocked when the account has an entry equal to it or to its domain; a domain entry blocks that exact host only. 1 to 10,000 entries, emails and domains together. An existing entry is kept as it is. Blocked addresses are skipped at dispatch and their scheduled steps cancelled at send.
         */
        post: operations["addBlocklistEntries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/blocklist/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a blocklist entry
         * @description Later dispatches and sends go through again; enrollments the entry already stopped stay stopped, and a contact that unsubscribed stays unsubscribed.
         */
        delete: operations["deleteBlocklistEntry"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/enroll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enroll a contact import
         * @description Enrolls every contact of the import in the batch. Contacts already enrolled here are counted in `already_enrolled`; unsubscribed contacts are never enrolled; a contact already in a sibling campaign of a `unique_contacts` outreach is skipped (`cross_campaign_duplicate`, listed by GET /campaigns/{id}/skips). Answers 200 with the counts, also when nobody new was enrolled.
         */
        post: operations["enrollContactImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/enroll_contact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enroll one contact
         * @description 201 when the contact was enrolled (an enrollment was created). 200 when it was not: it is already enrolled in a sibling campaign of a `unique_contacts` outreach, and the `cross_campaign_duplicate` skip is recorded (once). An unsubscribed contact is 422 `unprocessable`.
         */
        post: operations["enrollContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/dispatch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dispatch a batch
         * @description Hands the batch (`batch_number`, or without it the lowest batch with pending enrollments not dispatched yet) to the dispatcher, which schedules its sends in the background: step 1 at once with jitter, later steps at their cumulative delay. A pending campaign becomes active. Answers 200 once the batch is queued (`queued: true`); when nothing can be queued (the campaign is paused, has no enabled inbox or no steps, or every inbox is at its daily limit) it answers 200 with `queued: false` and the `reason`.
         */
        post: operations["dispatchCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause an active campaign
         * @description active to paused (`paused_reason: manual`). Scheduled sends stay as they are: the sender leaves them while the campaign is paused, and resume plans them again. Takes no body.
         */
        post: operations["pauseCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused campaign
         * @description paused to active, whatever paused it. The sends held while it was paused are planned again from now (`rescheduled`), so a long pause does not release a burst of overdue sends; a big backlog is planned by a background job before any of it is released. Takes no body.
         */
        post: operations["resumeCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/smtp_credentials/{credential_id}/reenable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-enable a disabled inbox
         * @description Clears `disabled_at` and `disabled_reason` of one of the campaign's inboxes, and its refused IMAP logins (reply detection tries again). The campaign stays as it is: resume it if it was paused. Takes no body.
         */
        post: operations["reenableSmtpCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/test_send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the sequence to test addresses
         * @description Queues every step (every variant of a step with variants), threaded, to each address, `[Test]` in the subject; the sender sends them in the background. Not an enrollment and not counted against the plan. 1 to 25 addresses; addresses that unsubscribed in this account are skipped (422 `unprocessable` when no address is left). 100 addresses per account per UTC day, then 429 `rate_limited` with Retry-After. Answers 200 once queued.
         */
        post: operations["testSendCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/send_forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Forecast scheduled sends per day
         * @description Sends still to go out per day from today, for `days` days of the campaign schedule's time zone (UTC without a schedule), every day present.
         */
        get: operations["getSendForecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/skips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List skipped enrollments
         * @description Contacts the campaign passed over: an invalid MX, a duplicate across sibling campaigns, a blocklisted address. `starting_after` takes a skip id.
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listCampaignSkips"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List replied enrollments
         * @description The campaign's enrollments that replied, newest reply first, with the hours from the first send to the reply. `starting_after` takes an enrollment id.
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listCampaignReplies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/enrollments/{enrollment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an enrollment
         * @description One enrollment of the campaign: its status and outcomes, `resume_at` when an out-of-office moved its next step to the contact's return, `completed_at` once every step has left, and the follow-on moves (`moved_from_enrollment_id`, `moved_on_at`, `moved_on_result`).
         */
        get: operations["getEnrollment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Campaign analytics per step, variant or day
         * @description A campaign's sends and what they drew, per step (`group_by=step`), per A/B variant (`group_by=variant`) or per day (`group_by=day`), with totals.
         *
         *     **Range.** `from` and `to` are calendar days (YYYY-MM-DD), inclusive, of the campaign schedule's time zone (UTC without a schedule; `timezone` in the answer). Either may be left out (open on that side). They filter every counter by the time of its own event (a send by its send time, an open by the time of the open, and so on), in every view. `from` after `to` is 422 `validation_failed`, and so is a `group_by=day` range of more than 366 days (with one bound left out, the range up to the first or last day that has a count; with neither, the campaign's whole life is listed).
         *
         *     **Counting rules.**
         *     - `sent`: steps delivered to SMTP: step sends recorded as sent, or bounced after they were sent. A send the SMTP server refused during the session (a synchronous bounce) never left and is not counted; cancelled, skipped, failed and scheduled steps are not counted either.
         *     - `bounced`: enrollments that bounced (at their bounce time), a refused send included.
         *     - `opened`, `clicked`: enrollments whose first open (the tracking pixel) or first click of a tracked link happened. Opens are unreliable (image blocking hides them, privacy proxies that prefetch images fake them); clicks and replies are the signals to act on.
         *     - `replied`: enrollments that replied (an auto-reply is not a reply); `unsubscribed`: enrollments that unsubscribed.
         *     - `replies_by_category`: inbound replies and auto-replies matched to the campaign's enrollments, counted per message by category (a message without a category counts as `other`); one enrollment may send several, so their sum may exceed `replied`.
         *     - **Attribution.** Each open, click, reply, bounce, unsubscribe and inbound reply is credited to the step last sent to that enrollment at or before the event (the send with the greatest send time not after it, a refused send included); when every send of the enrollment is later than the event (clocks apart), to its first step. Enrollments that never had a send are not counted.
         *     - `rates`: each counter over `sent` of the same group, in percent with 2 decimals (0 when nothing was sent), like the rates of GET /campaigns/{id}. A day's rates compare that day's events with that day's sends, so they may exceed 100.
         *
         *     **Groups.** Every counted send and event is in exactly one group, so the groups add up to `totals`.
         *     - `step`: one group per step of the campaign in position order, also those with nothing counted (all zero).
         *     - `variant`: one group per A/B variant of each step with variants (`variant_id`), and one group with `variant_id: null` per step without variants, in step order and the variants' order.
         *     - `day`: one group per day (`day`) from `from` to `to`, every day present (zeros included); a bound left out is replaced by the first or last day that has a count (no groups when nothing was counted).
         *     A step or variant removed after it was sent keeps a group of its own, after the campaign's own in its step.
         *
         *     Served from two aggregate statements over the campaign's indexed rows, read in one snapshot; a benchmark at 1M sends is in bench/results/campaign-analytics.json.
         */
        get: operations["getCampaignAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List campaigns
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listCampaigns"];
        put?: never;
        /**
         * Create a campaign
         * @description A campaign with its sequence steps and its inboxes (SMTP credentials, optionally with IMAP settings for reply detection). It starts `pending`: enroll contacts, then dispatch. An inbox logs in with `smtp_password` (and `imap_password`), or is an OAuth2 mailbox: `auth: {type: "oauth2", provider: "google" | "microsoft", refresh_token | connection_id}` (no passwords), whose SMTP host, port and TLS mode, IMAP settings (unless `imap_host` is given, or null for none), `smtp_username` (from_email) and `daily_limit` (50) default to the provider's.
         */
        post: operations["createCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a campaign with its statistics */
        get: operations["getCampaign"];
        put?: never;
        post?: never;
        /**
         * Delete a campaign
         * @description Its enrollments stop at once; links in emails already delivered keep working.
         */
        delete: operations["deleteCampaign"];
        options?: never;
        head?: never;
        /** Change a campaign's settings */
        patch: operations["updateCampaign"];
        trace?: never;
    };
    "/campaigns/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Render the sequence for one contact */
        get: operations["previewCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact_imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contact imports
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listContactImports"];
        put?: never;
        /**
         * Import contacts
         * @description Up to 250,000 rows in a body of up to 64mb, sent as `{"contact_import": {"name", "contacts": [...]}}` or with the fields at the top level. The body is read as it streams in and its rows are merged into contacts in one transaction once the whole body has proved good: a body refused for any reason writes no contact. No rows (or no `contacts`) is 422 no_contacts_provided.
         *
         *     Emails are trimmed and lower-cased; one contact per address per account. A later non-empty value updates a field, an empty one never erases it; unsubscribed contacts stay unsubscribed.
         */
        post: operations["createContactImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact_imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a contact import */
        get: operations["getContactImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description `email` finds the contact with that address (compared trimmed and lower-cased). Contacts are created and updated by contact imports.
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check addresses
         * @description 1 to 1,000 addresses; nothing is stored and no contact is needed. Each address is checked for syntax (the rule contact imports apply), an MX record for its domain (looked up once per domain, cached; a domain not looked up within 20 seconds counts as no answer), a disposable-mail domain (a maintained list; subdomains count) and a role account (info@, sales@, no-reply@...). The recipient's mail server is never contacted: probing it over SMTP harms the sending address's reputation. Answers one result per address, in the order given.
         */
        post: operations["verifyContacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a contact */
        get: operations["getContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the OpenAPI document
         * @description No API key. The OpenAPI 3.1 document of every endpoint, generated from the code that validates and serializes; cacheable for 5 minutes.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description No API key. This document rendered for people (Redoc), every asset served by the API itself; cacheable for 5 minutes.
         */
        get: operations["getReferencePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A script the reference page loads
         * @description No API key. The page asks for `<name>?v=<digest of the body>`: that URL is cacheable for a year; without the current digest, for 5 minutes.
         */
        get: operations["getReferencePageAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The page listing every error code
         * @description No API key. Every error code with its HTTP status and meaning.
         */
        get: operations["listErrorPages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The page of one error code
         * @description No API key. The page an error envelope's `type` links to: the code's HTTP status, meaning and what a client should do about it.
         */
        get: operations["getErrorPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains/{domain}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check a sender domain's health
         * @description Five checks of the domain's DNS as receiving servers read it: `mx`, `spf`, `dkim`, `dmarc` and `blocklist` (the sending hosts' addresses on the `DNSBL_ZONES` blocklists), each `pass`, `warn` or `fail` with what was found and a one-line fix; `status` is the worst. The sending hosts are `smtp_host` if given, else the SMTP hosts of the account's inboxes whose from_email is on the domain. A report checked within 24 h is served as stored (the dispatcher re-checks the domains of running campaigns daily); `refresh=true`, `smtp_host` or a new `dkim_selector` checks now. A DNS failure is a `warn` (could not check).
         */
        get: operations["getDomainHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains/{domain}/health/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a sender domain's health now
         * @description Checks the domain now and stores the report, as `GET /domains/:domain/health?refresh=true` does; `smtp_host` and `dkim_selector` as there. The body may be empty.
         */
        post: operations["checkDomainHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's events
         * @description The event log: every event the account's webhooks are sent, with the `type`, `created_at` and `data` of the webhook envelope (opt-in types such as enrollment.clicked included). `type` filters by one event type; `limit` defaults to 20.
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Is the process alive
         * @description No API key; touches no dependency.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Are PostgreSQL and Redis reachable
         * @description No API key. The checks run one at a time and their result is reused for a second, so a flood of probes costs at most one database and one Redis round trip per second. Each check is named with a fixed word, never its error text. A replica that is shutting down answers 503 with the check `shutdown`.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * No event stream: 405
         * @description The endpoint is stateless and never opens a server-to-client stream: always 405 `method_not_allowed` with `Allow: POST`, which MCP clients take as "no stream" (so it is not counted in the usage report).
         */
        get: operations["getMcpStream"];
        put?: never;
        /**
         * Send an MCP message (JSON-RPC 2.0)
         * @description The [Model Context Protocol](https://modelcontextprotocol.io) for AI agents, over the Streamable HTTP transport, stateless: every message is a POST answered on its own (no session, no event stream), so any replica answers any request. The same API key, account scoping, rate limits and request log as the REST API (usage is counted under the key's `client_kind`; a tool call is logged as `/mcp tools/call <tool>`, with its error's status when it failed). `tools/list` lists the tools (their input schemas are the REST operations' request schemas); a failed tool call is a result with `isError: true` and the error envelope in `structuredContent`. Tools that send mail (`dispatch_campaign`, `test_send`, `answer_reply`) change nothing without `confirm: true`: they answer a preview. A request from a web page (with `Origin`) must come from an allowed origin and host (`MCP_ALLOWED_ORIGINS`, `MCP_ALLOWED_HOSTS`): 403 `origin_not_allowed` otherwise. An `Idempotency-Key` header applies to every tool call of the request that changes something: repeated, it answers the first result.
         */
        post: operations["postMcpMessage"];
        /**
         * No session to end: 405
         * @description The endpoint is stateless and has no session: always 405 `method_not_allowed` with `Allow: POST`.
         */
        delete: operations["deleteMcpSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/{provider}/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting a mailbox
         * @description The provider's authorization URL for the deployment's OAuth app: `response_type=code`, `client_id`, `redirect_uri` = `PUBLIC_BASE_URL/oauth/:provider/callback`, the scopes (Google: `https://mail.google.com/ openid email` (with `access_type=offline` and `prompt=consent`, so a refresh token is issued); Microsoft: `offline_access https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All openid email`) and a signed `state` (this account, the provider, a single-use nonce; 10 minutes). Open it in the browser of the mailbox's owner; after consent the provider redirects to the callback, which stores the connection. `login_hint` preselects the mailbox.
         */
        post: operations["authorizeOAuthMailbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect after consent
         * @description No API key: the browser of the mailbox's owner lands here. The `state` must be one this deployment signed for this provider, unexpired and not used before; otherwise 400 `invalid_oauth_state` and nothing is exchanged. The code is exchanged at the provider's token endpoint for a refresh token (stored encrypted) and the mailbox address (the id_token's `email`); the account's connection for that mailbox is created, or updated and healthy again. JSON, or an HTML page when the client accepts text/html. One budget per client IP (TRACKING_RATE_LIMIT_PER_MINUTE).
         */
        get: operations["oauthCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth connections
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listOAuthConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an OAuth connection */
        get: operations["getOAuthConnection"];
        put?: never;
        post?: never;
        /**
         * Delete an OAuth connection
         * @description Its stored tokens go with it (the grant at the provider stays until the mailbox's owner removes the app there). Refused while credentials still log in through it.
         */
        delete: operations["deleteOAuthConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outreaches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List outreaches
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listOutreaches"];
        put?: never;
        /**
         * Create an outreach
         * @description A group of sibling campaigns (they join it with `outreach_id`). With `unique_contacts`, a contact already enrolled in one of its campaigns is skipped when enrolled in another (`cross_campaign_duplicate`).
         */
        post: operations["createOutreach"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outreaches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an outreach */
        get: operations["getOutreach"];
        put?: never;
        post?: never;
        /**
         * Delete an outreach
         * @description Its campaigns are detached from it, not deleted.
         */
        delete: operations["deleteOutreach"];
        options?: never;
        head?: never;
        /** Change an outreach */
        patch: operations["updateOutreach"];
        trace?: never;
    };
    "/webhooks/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive the payment provider's events
         * @description Called by the payment provider (Stripe), not by accounts: no API key. The `Stripe-Signature` header is checked against STRIPE_WEBHOOK_SECRET over the raw body (300 s tolerance); a missing, wrong, stale or future signature, or no configured secret, is 401 `invalid_signature`. Handles customer.subscription.created, .updated and .deleted, invoice.paid and invoice.payment_failed to keep the account's plan in sync with its subscription; other types are acknowledged and ignored. Each event is applied once. When it cannot be applied now (a price no plan carries: 500; the provider unreachable: 503) the answer is a 5xx, so the provider delivers it again.
         */
        post: operations["receiveProviderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the plans for sale
         * @description Public, priced plans that are not archived, by tier. No API key. Answered from memory for up to PLANS_CACHE_SECONDS (30 s), so an operator's change shows within that time.
         */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account
         * @description An account on the free plan with its first API key. No API key. Limited per client address (IPv6: per /64) to SIGNUP_LIMIT_PER_HOUR (5) an hour: past it, 429 rate_limited with Retry-After and `details.scope` `ip`. An email already registered is 422 validation_failed naming `email`. The payment provider's customer is created with the account: if the provider fails, no account is made (503 service_unavailable). Idempotency-Key is not honoured here.
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/relay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive the SMTP relay's bounce and complaint reports
         * @description Called by the SMTP relay provider, not by accounts: no API key. Signed with the header `X-Relay-Signature: t=<unix seconds>,v1=<hex>`, v1 the HMAC-SHA256 of `<t>.<raw body>` keyed with RELAY_WEBHOOK_SECRET (300 s tolerance); anything else, or no configured secret, is 401 `invalid_signature`. The body (1 MB at most) is read only after the signature holds. A bounce marks the matching enrollment bounced (`enrollment.bounced`); a complaint unsubscribes the contact (`enrollment.unsubscribed` per active enrollment). A report is matched by `message_id`, else to the most recent step sent to the address, and affects only the account that sent it. Unknown recipients are accepted and ignored; replays are harmless.
         */
        post: operations["receiveRelayReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List replies
         * @description Replies and auto-replies matched to the account's enrollments, newest first (by `received_at`), with a 200-character `snippet` of their text. `campaign_id` narrows the list to one campaign (404 `campaign_not_found` when it is not one of this account's), `kind` to replies or auto-replies, `category` to one category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other).
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listReplies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/replies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a reply with its text and answers */
        get: operations["getReply"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Correct a reply's category
         * @description Sets the reply's `category` as a person's correction (`category_source` becomes `manual`; a model never overrides it). The new category's actions run as when the reply arrived: `unsubscribe_request` unsubscribes the contact (when the campaign's `unsubscribe_on_request` is on), `out_of_office` moves the enrollment's next step to the return date, and a campaign's `reply_actions` naming the category move the contact to their campaign. Emits `reply.categorized` (opt-in) when the category or its source changes; the same category again changes nothing.
         */
        patch: operations["categorizeReply"];
        trace?: never;
    };
    "/replies/{id}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a reply
         * @description Answers 202: the answer is recorded `queued` and sent in the background by the sender, through the inbox that got the reply, threaded to it (`In-Reply-To`, `References`); follow its `state` (queued, sending, sent or failed) in GET /replies/{id}. The subject defaults to `Re: <reply subject>`. An answer counts like a step-1 send against its inbox's `daily_limit` for the day: a full day is 422 `mailbox_limit_reached` (`details {daily_limit, used}`), a disabled or deleted inbox 422 `mailbox_unavailable`. Send an Idempotency-Key so a retry never answers twice.
         */
        post: operations["answerReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/t/o/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open-tracking pixel
         * @description Always the same 1x1 transparent GIF, whatever the token (its validity is never revealed), also over the client's rate limit: an image proxy would show a 429 as a broken image, so only the open is not recorded then. The first GET with a valid token records the open; a HEAD records nothing.
         */
        get: operations["trackOpen"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/t/c/{token}/{url}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tracked link redirect
         * @description Redirects to the destination signed into the link, only while its enrollment exists and the destination is one of the links of a template it was sent: never an open redirect, and not after its campaign is deleted. The first GET per enrollment records the click (`enrollment.clicked`); a HEAD (link checkers) is checked but not recorded. Anything altered or no longer valid is a 404 page without Location.
         */
        get: operations["trackClick"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/u/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Unsubscribe page
         * @description Asks the recipient to confirm with a button that POSTs to the same URL, or says the address is already unsubscribed. A GET only asks: link scanners and prefetchers follow links, so only the POST unsubscribes. Links of a deleted campaign keep working.
         */
        get: operations["showUnsubscribePage"];
        put?: never;
        /**
         * Unsubscribe (one-click, RFC 8058)
         * @description Unsubscribes the contact: its active enrollments in every campaign become unsubscribed, their steps not yet sent are cancelled, and one `enrollment.unsubscribed` is emitted per enrollment. The List-Unsubscribe-Post target: mail clients POST `List-Unsubscribe=One-Click` form-encoded, but any body and content type is accepted and the body is ignored. Repeating it is harmless.
         */
        post: operations["unsubscribeOneClick"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the account's API traffic
         * @description Requests over the last `days` days (30 by default), per client kind (the `client_kind` of the key that made them) and per UTC day.
         */
        get: operations["getApiUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Events are POSTed to `url`, signed with the secret this answer shows once. `event_filters` defaults to `["*"]`: the v1 event types; opt-in types (`enrollment.clicked`, `reply.categorized`, `credential.auth_failed`, `credential.paused`) only when named. The URL must be absolute http(s) without credentials, and its host must not resolve to an internal address (unless the deployment allows private URLs).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Its deliveries go with it.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook
         * @description Any of `url`, `event_filters`, `description`; `disabled_at: null` re-enables a disabled webhook and resets `consecutive_failures`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/webhooks/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new signing secret
         * @description The new secret is shown once. For 24 hours deliveries are signed with both the new and the previous secret (two v1 values in X-Service-Signature), so receivers can switch over without dropping events.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's deliveries
         * @description Each delivery with its attempts, oldest attempt first. `starting_after` takes a delivery id.
         *
         *     A list page: newest first; follow `Link` while `X-Has-More` is true.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its attempts
         * @description 404 `webhook_not_found` for an unknown webhook; then 404 `not_found` for a delivery that is not one of this webhook's.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Answers 202: the delivery is made `pending` again, due now, with a fresh budget of 5 attempts, and the deliverers send it in the background (the same envelope, same `id`), whether it failed, succeeded or was skipped; follow it with GET /webhooks/{id}/deliveries/{delivery_id}. A delivery with an attempt under way is answered as it is. 422 `unprocessable` while the webhook is disabled: re-enable it first.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Sends a signed `webhook.test` event to this webhook only, at once and within the request: one attempt, no retry, and answers 200 with the outcome (a receiver's failure is `success: false`, not an error). Also goes to a disabled webhook, so a repaired receiver can be checked before re-enabling; never changes `consecutive_failures` or `disabled_at`.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "enrollment.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.sent
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.opened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.opened
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_opened"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.replied": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.replied
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_replied"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.bounced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.bounced
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_bounced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.unsubscribed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.unsubscribed
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_unsubscribed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credential.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credential.disabled
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_credential_disabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.paused
         * @description Delivered to webhooks whose event_filters hold "*" or the type. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_campaign_paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.clicked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.clicked
         * @description Opt-in: delivered only to webhooks whose event_filters name it. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_enrollment_clicked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "reply.categorized": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * reply.categorized
         * @description Opt-in: delivered only to webhooks whose event_filters name it. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_reply_categorized"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credential.auth_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credential.auth_failed
         * @description Opt-in: delivered only to webhooks whose event_filters name it. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_credential_auth_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "credential.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * credential.paused
         * @description Opt-in: delivered only to webhooks whose event_filters name it. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_credential_paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Sent to one webhook by POST /webhooks/{id}/test. A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.
         */
        post: operations["event_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AddressCheck: {
            /** @description The address as it was sent. */
            email: string;
            /**
             * @description invalid: bad syntax or no mail server; risky: a disposable-mail domain, a role account, or an MX look-up without an answer; valid otherwise.
             * @enum {unknown}
             */
            status: "valid" | "risky" | "invalid";
            /** @description The address passes the rule contact imports apply. */
            syntax: boolean;
            /** @description An MX record was found for its domain (false for no MX, a domain that does not exist, or no answer). */
            mx: boolean;
            /** @description Its domain, or a parent of it, is on the maintained list of disposable-mail domains. */
            disposable: boolean;
            /** @description A role account (info@, sales@, no-reply@...), compared ignoring case, dots, dashes, underscores and a +tag. */
            role: boolean;
            /** @description A short readable explanation of the status. */
            reason: string;
        };
        /** @description Percentages of sent with 2 decimals; 0 when nothing was sent. */
        AnalyticsRates: {
            /** @description opened / sent, percent. */
            open_rate: number;
            /** @description clicked / sent, percent. */
            click_rate: number;
            /** @description replied / sent, percent. */
            reply_rate: number;
            /** @description bounced / sent, percent. */
            bounce_rate: number;
            /** @description unsubscribed / sent, percent. */
            unsubscribe_rate: number;
        };
        /** @description An API key, without its secret. */
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** @description The key's first characters (ak_live_Ab12), to tell keys apart; the key itself is never shown again. */
            prefix: string;
            label: string;
            /**
             * @description The client the key is for: GET /usage counts requests by it; mcp keys are for AI agents.
             * @enum {unknown}
             */
            client_kind: "direct" | "mcp" | "sdk";
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Visible to the next request on any replica.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        ApiUsage: {
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            total_requests: number;
            /** @description Every client kind (direct, mcp, sdk), always and in that order, with zeros when it made no request. */
            by_client_kind: {
                /** @enum {unknown} */
                client_kind: "direct" | "mcp" | "sdk";
                requests: number;
                /** @description Answers with a status of 400 or more. */
                errors: number;
                /** @description null when the kind made no request. */
                avg_duration_ms: number | null;
            }[];
            by_day: {
                /**
                 * Format: date
                 * @description The UTC day.
                 */
                date: string;
                /** @enum {unknown} */
                client_kind: "direct" | "mcp" | "sdk";
                requests: number;
            }[];
        };
        BillingUsage: {
            plan_slug: string;
            monthly_limit: number;
            current_period_sends: number;
            remaining: number;
            /** @description true: dispatch answers 402 plan_limit_reached until the next period or a larger plan. */
            limit_reached: boolean;
            /** Format: date-time */
            period_start: string;
            /** Format: date-time */
            period_end: string;
        };
        BlocklistEntry: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            kind: "email" | "domain";
            /** @description A lower-cased address, or a host name without "@": it blocks that exact host, not its subdomains. */
            value: string;
            reason: string | null;
            /**
             * @description api: added with POST /blocklist; unsubscribe: the contact unsubscribed; complaint: a relay spam complaint.
             * @enum {unknown}
             */
            source: "api" | "unsubscribe" | "complaint";
            /** Format: date-time */
            created_at: string;
        };
        Campaign: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {unknown} */
            status: "pending" | "active" | "paused";
            paused_reason: string | null;
            /** Format: uuid */
            outreach_id: string | null;
            min_wait_seconds: number;
            max_wait_seconds: number;
            /** @enum {unknown} */
            jitter_scope: "batch" | "inbox";
            schedule: {
                timezone: string;
                days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                start_time: string;
                end_time: string;
                use_contact_timezone: boolean;
                /** @description Dates (YYYY-MM-DD, in the schedule's zone or the contact's) on which nothing is sent. */
                skip_dates: string[];
            } | null;
            verify_email_mx: boolean;
            /** @description At dispatch, an enrollment of a disposable-mail address is skipped (skip kind disposable). */
            skip_disposable: boolean;
            /** @description At dispatch, an enrollment of a role account (info@, sales@, no-reply@...) is skipped (skip kind role_account). */
            skip_role_accounts: boolean;
            /** @description A recipient whose domain's MX is Google's (Microsoft's) is sent from an inbox of that provider when one has room that day, else from any inbox. */
            match_recipient_provider: boolean;
            bounce_rate_threshold: number;
            /** @description Step-1 sends per day across all the campaign's inboxes (counted as an inbox's daily_limit: follow-ups do not count); null: no campaign-wide cap. */
            daily_limit: number | null;
            /** @description The unsubscribe line's text; {{unsubscribe_url}} marks the link, appended when absent. null: "Unsubscribe". */
            unsubscribe_footer: string | null;
            track_clicks: boolean;
            tracking_domain: string | null;
            /** @enum {unknown} */
            stop_on_reply_scope: "contact" | "domain";
            stop_on_auto_reply: boolean;
            /** @description A click of a tracked link stops the enrollment: no further steps. */
            stop_on_click: boolean;
            /** @description A reply categorized unsubscribe_request unsubscribes the contact as the one-click link does (blocklist included); off, it counts as an ordinary reply. */
            unsubscribe_on_request: boolean;
            /** @description A reply categorized wrong_person stops the enrollment (colleagues at the same company are not stopped); off, the sequence goes on. */
            stop_on_wrong_person: boolean;
            /** @description An out-of-office naming a return date moves the next step to that date plus this many days (at the window's opening). */
            out_of_office_days_after_return: number;
            /** @description An out-of-office without a return date moves the next step this many days later. */
            out_of_office_default_delay_days: number;
            /** @description A reply of the category enrolls the contact in that campaign of the account (step 1 at its next opening); at most one action per category. */
            reply_actions: {
                /** @enum {unknown} */
                category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person";
                /** Format: uuid */
                move_to_campaign_id: string;
            }[];
            /** @description A contact who finished every step without replying moves to that campaign wait_days after the last step. */
            on_completion: {
                /** Format: uuid */
                move_to_campaign_id: string;
                wait_days: number;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            sequence_steps: components["schemas"]["SequenceStep"][];
            smtp_credentials: components["schemas"]["SmtpCredential"][];
            totals: {
                total: number;
                pending: number;
                sent: number;
                opened: number;
                replied: number;
                bounced: number;
                unsubscribed: number;
                clicked: number;
                stopped: number;
                sent_unconfirmed: number;
                sends_failed: number;
            };
            rates: {
                /** @description Percent of sent that bounced. */
                bounce_rate: number;
                /** @description Percent of sent that opened. */
                open_rate: number;
                /** @description Percent of sent that replied. */
                reply_rate: number;
                /** @description Percent of sent that clicked a tracked link. */
                click_rate: number;
            };
            variants: {
                step_position: number;
                /** Format: uuid */
                variant_id: string;
                subject: string;
                weight: number;
                sent: number;
                opened: number;
                replied: number;
                clicked: number;
                bounced: number;
                /** @description Percent of the variant's sends opened. */
                open_rate: number;
                /** @description Percent replied. */
                reply_rate: number;
                /** @description Percent clicked. */
                click_rate: number;
                /** @description Percent bounced. */
                bounce_rate: number;
            }[];
            per_batch: {
                batch_number: number;
                total: number;
                pending: number;
                sent: number;
                opened: number;
                replied: number;
                bounced: number;
                unsubscribed: number;
            }[];
            recent_bounces: {
                /** Format: uuid */
                enrollment_id: string;
                /** Format: uuid */
                contact_id: string;
                /** Format: idn-email */
                email: string;
                bounce_reason: string | null;
                /** Format: date-time */
                bounced_at: string | null;
            }[];
            recent_failures: {
                /** Format: uuid */
                enrollment_id: string;
                /** Format: uuid */
                contact_id: string;
                /** Format: idn-email */
                email: string;
                step_position: number;
                reason: string | null;
                /** Format: date-time */
                failed_at: string | null;
            }[];
            credentials: {
                /** Format: uuid */
                id: string;
                label: string;
                /** Format: idn-email */
                from_email: string;
                /** @description Every step's sends today. */
                sends_today: number;
                /** @description Step-1 sends today: what daily_limit counts. */
                step1_sends_today: number;
                daily_limit: number;
                /** @description The limit today: daily_limit, or lower while the inbox's ramp warms it up. */
                daily_limit_today: number;
                /** Format: date-time */
                ramp_started_at: string | null;
                sends_total: number;
                /** @description Sends whose outcome is unknown: the connection failed after the message was sent. */
                sends_unconfirmed: number;
                bounces: number;
                /** @description Percent of the inbox's sends that bounced (verified bounces only). */
                bounce_rate: number;
                /** Format: date-time */
                disabled_at: string | null;
                last_error: string | null;
                /** Format: date-time */
                last_error_at: string | null;
                /**
                 * @description Reply detection: null without IMAP settings, pending until first checked, error while it fails.
                 * @enum {unknown}
                 */
                imap_status: "ok" | "pending" | "error" | null;
                imap_last_error: string | null;
                /** Format: date-time */
                imap_last_checked_at: string | null;
                /** @description The stored health report of the from_email's domain (GET /domains/:domain/health, re-checked daily); null until it is first checked. */
                domain_health: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** Format: date-time */
                    checked_at: string;
                } | null;
            }[];
            /** @description What to fix before or while sending: a credential's sending domain failing its health checks. */
            warnings: {
                /**
                 * @description sender_domain_failing: a credential sends from a domain whose health report fails.
                 * @enum {unknown}
                 */
                code: "sender_domain_failing";
                domain: string;
                message: string;
            }[];
            /** @description The campaign's replies and auto-replies by category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other). */
            replies_by_category: {
                interested: number;
                not_interested: number;
                out_of_office: number;
                unsubscribe_request: number;
                wrong_person: number;
                other: number;
            };
            skipped: {
                mx_invalid: number;
                cross_campaign_duplicate: number;
                blocklisted: number;
                /** @description Steps skipped because their condition was not met when they fell due. */
                condition_not_met: number;
                /** @description Enrollments skipped at dispatch for a disposable-mail address (skip_disposable). */
                disposable: number;
                /** @description Enrollments skipped at dispatch for a role account such as info@ (skip_role_accounts). */
                role_account: number;
            };
        };
        CampaignAnalytics: {
            /** Format: uuid */
            campaign_id: string;
            /** @enum {unknown} */
            group_by: "step" | "day" | "variant";
            /** @description The zone days are counted in: the campaign schedule's, UTC without one. */
            timezone: string;
            /**
             * Format: date
             * @description The first day counted, as asked (null: from the start).
             */
            from: string | null;
            /**
             * Format: date
             * @description The last day counted, as asked (null: up to now).
             */
            to: string | null;
            groups: {
                /** @description group_by step and variant: the step position. */
                step?: number;
                /**
                 * Format: uuid
                 * @description group_by variant: the A/B variant; null for a step without variants.
                 */
                variant_id?: string | null;
                /**
                 * Format: date
                 * @description group_by day: the day in `timezone`.
                 */
                day?: string;
                /** @description Steps delivered to SMTP (sent, or bounced after being sent). */
                sent: number;
                /** @description Enrollments whose first open (tracking pixel) happened. */
                opened: number;
                /** @description Enrollments whose first click of a tracked link happened. */
                clicked: number;
                /** @description Enrollments that replied (auto-replies are not replies). */
                replied: number;
                /** @description Enrollments that bounced. */
                bounced: number;
                /** @description Enrollments that unsubscribed. */
                unsubscribed: number;
                /** @description Inbound replies and auto-replies matched to the campaign's enrollments, by category (one without a category counts as other). A message count: one enrollment may send several. */
                replies_by_category: {
                    /** @description Replies and auto-replies categorized interested. */
                    interested: number;
                    /** @description Replies and auto-replies categorized not_interested. */
                    not_interested: number;
                    /** @description Replies and auto-replies categorized out_of_office. */
                    out_of_office: number;
                    /** @description Replies and auto-replies categorized unsubscribe_request. */
                    unsubscribe_request: number;
                    /** @description Replies and auto-replies categorized wrong_person. */
                    wrong_person: number;
                    /** @description Replies and auto-replies categorized other. */
                    other: number;
                };
                rates: components["schemas"]["AnalyticsRates"];
            }[];
            /** @description Every group together. */
            totals: {
                /** @description Steps delivered to SMTP (sent, or bounced after being sent). */
                sent: number;
                /** @description Enrollments whose first open (tracking pixel) happened. */
                opened: number;
                /** @description Enrollments whose first click of a tracked link happened. */
                clicked: number;
                /** @description Enrollments that replied (auto-replies are not replies). */
                replied: number;
                /** @description Enrollments that bounced. */
                bounced: number;
                /** @description Enrollments that unsubscribed. */
                unsubscribed: number;
                /** @description Inbound replies and auto-replies matched to the campaign's enrollments, by category (one without a category counts as other). A message count: one enrollment may send several. */
                replies_by_category: {
                    /** @description Replies and auto-replies categorized interested. */
                    interested: number;
                    /** @description Replies and auto-replies categorized not_interested. */
                    not_interested: number;
                    /** @description Replies and auto-replies categorized out_of_office. */
                    out_of_office: number;
                    /** @description Replies and auto-replies categorized unsubscribe_request. */
                    unsubscribe_request: number;
                    /** @description Replies and auto-replies categorized wrong_person. */
                    wrong_person: number;
                    /** @description Replies and auto-replies categorized other. */
                    other: number;
                };
                rates: components["schemas"]["AnalyticsRates"];
            };
        };
        CampaignPausedData: {
            /** Format: uuid */
            campaign_id: string;
            name: string;
            /** @enum {unknown} */
            reason: "all_credentials_disabled";
        };
        CampaignPreview: {
            /** Format: uuid */
            campaign_id: string;
            /** Format: uuid */
            contact_id: string;
            position: number;
            subject: string;
            body_html: string;
            body_text: string;
            /** @description Merge tags with no value and no fallback: they render empty. */
            missing_tags: string[];
            /** Format: uuid */
            variant_id: string | null;
            steps: {
                position: number;
                delay_minutes: number;
                subject: string;
                body_html: string;
                body_text: string;
                /** @description Merge tags with no value and no fallback: they render empty. */
                missing_tags: string[];
                /** Format: uuid */
                variant_id: string | null;
            }[];
        };
        CampaignSummary: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {unknown} */
            status: "pending" | "active" | "paused";
            /** Format: date-time */
            created_at: string;
        };
        /** @description A checkout session at the payment provider: send the buyer to url. */
        CheckoutSession: {
            id: string;
            /** Format: uri */
            url: string;
            plan_slug: string;
        };
        ConnectedMailbox: {
            connection: {
                /**
                 * Format: uuid
                 * @description Give it as a credential's auth.connection_id.
                 */
                id: string;
                /**
                 * @description The mailbox provider.
                 * @enum {unknown}
                 */
                provider: "google" | "microsoft";
                /**
                 * Format: idn-email
                 * @description The mailbox address the XOAUTH2 logins name (from the provider's id_token, or the credential's smtp_username).
                 */
                email: string;
                /** Format: date-time */
                created_at: string;
            };
        };
        Contact: {
            /** Format: uuid */
            id: string;
            /** @description Trimmed and lower-cased; one contact per address per account. The address may hold non-ASCII characters. */
            email: string;
            first_name: string | null;
            last_name: string | null;
            company: string | null;
            /** @description An IANA time zone name; sends follow it when the campaign's schedule says use_contact_timezone. */
            timezone: string | null;
            /** @description The values of {{custom.<key>}} tags: at most 50 keys, strings of at most 1000 characters, finite numbers or booleans. */
            custom_fields: {
                [key: string]: string | number | boolean;
            };
            /** Format: date-time */
            unsubscribed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ContactEnrolled: {
            /** @constant */
            enrolled: true;
            enrollment: components["schemas"]["Enrollment"];
            skip: null;
        };
        ContactImport: {
            /** Format: uuid */
            id: string;
            name: string | null;
            /** @description Rows in the request. */
            total_rows: number;
            /** @description Distinct valid addresses, each linked to the import. */
            imported_count: number;
            /** @description Valid rows that created no contact: a repeat inside the import or an existing contact. */
            duplicate_count: number;
            /** @description Rows refused by validation. */
            invalid_count: number;
            /** @description Valid rows whose domain is a disposable-mail domain: imported all the same (a campaign with skip_disposable skips them at dispatch). */
            disposable_count: number;
            /** @description Valid rows of role accounts (info@, sales@...): imported all the same (a campaign with skip_role_accounts skips them at dispatch). */
            role_count: number;
            /** Format: date-time */
            created_at: string;
            /** @description The first 1000 invalid rows with their reasons. */
            invalid_rows: {
                /** @description The row's position in contacts, from 0. */
                index: number;
                /** @description The row's email as sent (null when it was not a string). */
                email: string | null;
                reason: string;
            }[];
        };
        ContactImportSummary: {
            /** Format: uuid */
            id: string;
            name: string | null;
            /** @description Rows in the request. */
            total_rows: number;
            /** @description Distinct valid addresses, each linked to the import. */
            imported_count: number;
            /** @description Valid rows that created no contact: a repeat inside the import or an existing contact. */
            duplicate_count: number;
            /** @description Rows refused by validation. */
            invalid_count: number;
            /** @description Valid rows whose domain is a disposable-mail domain: imported all the same (a campaign with skip_disposable skips them at dispatch). */
            disposable_count: number;
            /** @description Valid rows of role accounts (info@, sales@...): imported all the same (a campaign with skip_role_accounts skips them at dispatch). */
            role_count: number;
            /** Format: date-time */
            created_at: string;
        };
        ContactNotEnrolled: {
            /** @constant */
            enrolled: false;
            enrollment: null;
            /** @description Why the contact was not enrolled: it is enrolled in a sibling campaign of a unique_contacts outreach. */
            skip: {
                /** @constant */
                kind: "cross_campaign_duplicate";
                reason: string;
            };
        };
        CreatedApiKey: {
            /** Format: uuid */
            id: string;
            /** @description The key's first characters (ak_live_Ab12), to tell keys apart; the key itself is never shown again. */
            prefix: string;
            label: string;
            /**
             * @description The client the key is for: GET /usage counts requests by it; mcp keys are for AI agents.
             * @enum {unknown}
             */
            client_kind: "direct" | "mcp" | "sdk";
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Visible to the next request on any replica.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description The whole key, shown only in this answer: only its hash is stored. */
            plaintext: string;
        };
        /** @description The webhook with its signing secret, shown once. */
        CreatedWebhook: {
            /** Format: uuid */
            id: string;
            /** @description The receiver's absolute http(s) URL, as normalized when saved. */
            url: string;
            description: string | null;
            /** @description "*" is the v1 event types; opt-in types only when named. */
            event_filters: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
            /**
             * Format: date-time
             * @description Set when consecutive failed deliveries disabled it; PATCH disabled_at: null re-enables it.
             */
            disabled_at: string | null;
            consecutive_failures: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The signing secret, shown only here: store it to verify X-Service-Signature. */
            secret: string;
        };
        CredentialAuthFailedData: {
            /** Format: uuid */
            credential_id: string;
            /** Format: uuid */
            campaign_id: string;
            /** Format: idn-email */
            from_email: string;
            /**
             * @description The OAuth2 mailbox's provider.
             * @enum {unknown}
             */
            provider: "google" | "microsoft";
            /** @description Why the mailbox can no longer log in (the provider refused its refresh token): it must be reconnected. */
            reason: string;
        };
        CredentialDisabledData: {
            /** Format: uuid */
            credential_id: string;
            /** Format: idn-email */
            from_email: string;
            /** Format: uuid */
            campaign_id: string;
            /** @description Percent of the inbox's sends that bounced. */
            bounce_rate: number;
            threshold: number;
        };
        CredentialPausedData: {
            /** Format: uuid */
            credential_id: string;
            /** Format: uuid */
            campaign_id: string;
            /** Format: idn-email */
            from_email: string;
            /**
             * Format: date-time
             * @description Nothing is sent through the inbox until then, and its warm-up ramp is held meanwhile.
             */
            paused_until: string;
            /** @description The bounce or complaint spike that paused it, with its counts over the last 24 hours. */
            reason: string;
        };
        DispatchResult: {
            /** Format: uuid */
            campaign_id: string;
            batch_number: number;
            /** @enum {unknown} */
            status: "pending" | "active" | "paused";
            /** @description Pending enrollments of the batch not dispatched yet. */
            pending: number;
            /** @description false when nothing was handed to the dispatcher; reason says why. */
            queued: boolean;
            /**
             * @description Why nothing was queued; null when queued.
             * @enum {unknown}
             */
            reason: "campaign_paused" | "no_enabled_credentials" | "no_steps" | "daily_limit_reached" | null;
        };
        DomainHealth: {
            /** @description Lower-cased, without a trailing dot. */
            domain: string;
            /**
             * @description The worst of the checks.
             * @enum {unknown}
             */
            status: "pass" | "warn" | "fail";
            /**
             * Format: date-time
             * @description When the checks ran (a stored report is served for 24 h).
             */
            checked_at: string;
            /** @description The SMTP hosts the SPF and blocklist checks were made for: smtp_host if given, else those of the account's inboxes sending from the domain. */
            sending_hosts: string[];
            /** @description The DKIM selector named with dkim_selector (kept for later checks). */
            dkim_selector: string | null;
            checks: {
                /** @description MX records: none or a null MX fails (replies and bounces are lost). */
                mx: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** @description What was found. */
                    detail: string;
                    /** @description What to change, in one line ("Nothing to do." when it passes). */
                    fix: string;
                };
                /** @description One v=spf1 record authorizing the sending host (its provider's include or its address), not +all (fail) or ?all (warn), within 10 DNS lookups. */
                spf: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** @description What was found. */
                    detail: string;
                    /** @description What to change, in one line ("Nothing to do." when it passes). */
                    fix: string;
                };
                /** @description A key at the provider's selectors, common ones or dkim_selector; none found warns (DNS cannot list selectors), a revoked key (empty p=) fails. */
                dkim: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** @description What was found. */
                    detail: string;
                    /** @description What to change, in one line ("Nothing to do." when it passes). */
                    fix: string;
                };
                /** @description A record at _dmarc.<domain>: missing fails, p=none warns, quarantine or reject passes; alignment and rua in the detail. */
                dmarc: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** @description What was found. */
                    detail: string;
                    /** @description What to change, in one line ("Nothing to do." when it passes). */
                    fix: string;
                };
                /** @description The sending hosts' IPv4 addresses on the DNSBL_ZONES blocklists: listed fails; no zone or no known host warns. */
                blocklist: {
                    /** @enum {unknown} */
                    status: "pass" | "warn" | "fail";
                    /** @description What was found. */
                    detail: string;
                    /** @description What to change, in one line ("Nothing to do." when it passes). */
                    fix: string;
                };
            };
        };
        EnrollContactImportResult: {
            /** Format: uuid */
            campaign_id: string;
            /** Format: uuid */
            contact_import_id: string;
            batch_number: number;
            /** @description Contacts enrolled now. */
            enrolled: number;
            already_enrolled: number;
            skipped: {
                cross_campaign_duplicate: number;
                unsubscribed: number;
            };
        };
        Enrollment: {
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: uuid */
            campaign_id: string;
            /** Format: idn-email */
            email: string;
            /** @enum {unknown} */
            status: "pending" | "sent" | "opened" | "replied" | "bounced" | "unsubscribed";
            batch_number: number;
            priority: number;
            /** Format: date-time */
            sent_at: string | null;
            /** Format: date-time */
            opened_at: string | null;
            /** Format: date-time */
            clicked_at: string | null;
            /** Format: date-time */
            replied_at: string | null;
            bounce_reason: string | null;
            /** Format: date-time */
            unsubscribed_at: string | null;
            /** Format: date-time */
            stopped_at: string | null;
            stopped_reason: string | null;
            /**
             * Format: date-time
             * @description An out-of-office moved the next step to this time (the contact's return date plus the campaign's out_of_office_days_after_return, or its default delay).
             */
            resume_at: string | null;
            /**
             * Format: date-time
             * @description Every step has left (sent, or skipped by its condition).
             */
            completed_at: string | null;
            /**
             * Format: uuid
             * @description The enrollment of another campaign this one came from (a reply action or on_completion).
             */
            moved_from_enrollment_id: string | null;
            /**
             * Format: date-time
             * @description When the contact was moved on to another campaign, or the move refused (see moved_on_result).
             */
            moved_on_at: string | null;
            /** @description What became of the move: moved, or why it was refused. */
            moved_on_result: string | null;
            /** Format: date-time */
            created_at: string;
        };
        EnrollmentClickedData: {
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            contact_email: string;
            /** Format: uuid */
            campaign_id: string;
            /**
             * @description The enrollment's status after the change.
             * @enum {unknown}
             */
            status: "pending" | "sent" | "opened" | "replied" | "bounced" | "unsubscribed";
            /** Format: date-time */
            sent_at: string | null;
            /** Format: date-time */
            replied_at: string | null;
            bounce_reason: string | null;
            /**
             * Format: uuid
             * @description The A/B variant of the step sent (enrollment.sent), or of the last step sent before the open, click or reply; null without variants.
             */
            variant_id?: string | null;
            /** @description The link's destination as written in the template. */
            url: string;
            /**
             * Format: date-time
             * @description The first click of a tracked link.
             */
            clicked_at: string;
        };
        EnrollmentEventData: {
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            contact_email: string;
            /** Format: uuid */
            campaign_id: string;
            /**
             * @description The enrollment's status after the change.
             * @enum {unknown}
             */
            status: "pending" | "sent" | "opened" | "replied" | "bounced" | "unsubscribed";
            /** Format: date-time */
            sent_at: string | null;
            /** Format: date-time */
            replied_at: string | null;
            bounce_reason: string | null;
            /**
             * Format: uuid
             * @description The A/B variant of the step sent (enrollment.sent), or of the last step sent before the open, click or reply; null without variants.
             */
            variant_id?: string | null;
        };
        EnrollmentSkip: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            kind: "mx_invalid" | "cross_campaign_duplicate" | "blocklisted" | "condition_not_met" | "disposable" | "role_account";
            reason: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            email: string;
            /** Format: uuid */
            enrollment_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        EnrollmentUnsubscribedData: {
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            contact_email: string;
            /** Format: uuid */
            campaign_id: string;
            /** Format: date-time */
            unsubscribed_at: string;
        };
        Error: {
            /** @description The error code: branch on it. */
            code: string;
            /** Format: uri */
            type: string;
            /** @description For people: may change wording between releases. */
            message: string;
            /** @description Facts about the error, by code (validation_failed: errors [{field, message}]; rate_limited: limit, period, scope; account_suspended: suspended_at; ...). */
            details?: {
                [key: string]: unknown;
            };
            request_id?: string;
        };
        Event: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.sent";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentEventData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.opened";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentEventData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.replied";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentEventData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.bounced";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentEventData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.unsubscribed";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentUnsubscribedData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "credential.disabled";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["CredentialDisabledData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "campaign.paused";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["CampaignPausedData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "enrollment.clicked";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["EnrollmentClickedData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "reply.categorized";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["ReplyCategorizedData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "credential.auth_failed";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["CredentialAuthFailedData"];
        } | {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "credential.paused";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["CredentialPausedData"];
        };
        /** @description A JSON-RPC 2.0 message of the Model Context Protocol: a request, a notification (no id, no answer), or a response. */
        JsonRpcMessage: {
            /** @constant */
            jsonrpc: "2.0";
            id: string | number;
            /** @description initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, ping, notifications/initialized, ... */
            method: string;
            params?: Record<string, never>;
        } | {
            /** @constant */
            jsonrpc: "2.0";
            /** @description initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, ping, notifications/initialized, ... */
            method: string;
            params?: Record<string, never>;
        } | {
            /** @constant */
            jsonrpc: "2.0";
            id: string | number;
            result: Record<string, never>;
        } | {
            /** @constant */
            jsonrpc: "2.0";
            id: string | number | null;
            error: {
                code: number;
                message: string;
                data?: unknown;
            };
        };
        OAuthAuthorization: {
            /**
             * Format: uri
             * @description Open it in the browser of the mailbox's owner: after consenting they land on the callback, which stores the connection.
             */
            authorization_url: string;
            /** @description The signed state carried by the URL (single use, 10 minutes). */
            state: string;
            /**
             * Format: date-time
             * @description The state is refused after this.
             */
            expires_at: string;
        };
        /** @description An OAuth2 mailbox of the account. Its tokens are stored encrypted and never shown. */
        OAuthConnection: {
            /** Format: uuid */
            id: string;
            /**
             * @description The mailbox provider.
             * @enum {unknown}
             */
            provider: "google" | "microsoft";
            /**
             * Format: idn-email
             * @description The mailbox address the XOAUTH2 logins name (from the provider's id_token, or the credential's smtp_username).
             */
            email: string;
            /**
             * @description auth_failed: the provider refused the refresh token (revoked, expired); reconnect the mailbox (POST /oauth/:provider/authorize, or a new refresh_token).
             * @enum {unknown}
             */
            status: "connected" | "auth_failed";
            /** @description Why the mailbox cannot log in (auth_failed), readable; null when connected. */
            error: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description Credentials (campaign inboxes) that log in through this connection. */
            credentials_count: number;
        };
        Outreach: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description true: a contact already in a sibling campaign of the outreach is skipped (cross_campaign_duplicate) when enrolled. */
            unique_contacts: boolean;
            campaign_ids: string[];
            /** Format: date-time */
            created_at: string;
        };
        PausedCampaign: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            status: "active" | "paused";
            /** @description manual after POST /pause; otherwise why the service paused it. */
            paused_reason: string | null;
        };
        Plan: {
            slug: string;
            name: string;
            /** @description free 0, hobby 1, pro 2, scale 3: the tier sets the account's quotas. */
            tier: number;
            /** @description Sends per billing period. */
            monthly_limit: number;
            /** @description The plan's price at the payment provider; null for a free plan. */
            provider_price_id: string | null;
            /** @description false for a private plan, which only an operator gives. */
            public: boolean;
            /** Format: date-time */
            archived_at: string | null;
        };
        /** @description A customer-portal session at the payment provider: send the customer to url. */
        PortalSession: {
            id: string;
            /** Format: uri */
            url: string;
        };
        ProviderEventReceipt: {
            /** @constant */
            received: true;
            /** @description The event's id. */
            id: string;
            /** @description The event's type. */
            type: string;
            /**
             * @description applied; stale (a newer event was applied already); duplicate (this event was processed already); ignored (a type the service does not handle, or an event about no known account or subscription: nothing to change).
             * @enum {unknown}
             */
            outcome: "applied" | "stale" | "duplicate" | "ignored";
        };
        PublicPlan: {
            slug: string;
            name: string;
            /** @description free 0, hobby 1, pro 2, scale 3: the tier sets the account's quotas. */
            tier: number;
            /** @description Sends per billing period. */
            monthly_limit: number;
            /** @description The plan's price at the payment provider. */
            provider_price_id: string;
        };
        /** @description Creating past a limit is 422 quota_exceeded. The plan tier sets the limits; an operator may change one account's. */
        Quotas: {
            /** @description What the account may hold and holds: active API keys (revoked ones do not count). */
            api_keys: {
                /** @description null: unlimited. */
                limit: number | null;
                current: number;
            };
            /** @description What the account may hold and holds: campaigns. */
            campaigns: {
                /** @description null: unlimited. */
                limit: number | null;
                current: number;
            };
            /** @description What the account may hold and holds: webhooks (disabled ones count). */
            webhooks: {
                /** @description null: unlimited. */
                limit: number | null;
                current: number;
            };
            /** @description What the account may hold and holds: SMTP credentials, across all the account's campaigns. */
            smtp_credentials: {
                /** @description null: unlimited. */
                limit: number | null;
                current: number;
            };
            /** @description What the account may hold and holds: inboxes watched for replies (SMTP credentials with IMAP settings). */
            imap_inboxes: {
                /** @description null: unlimited. */
                limit: number | null;
                current: number;
            };
        };
        RelayReportSummary: {
            /** @description Events in the report. */
            received: number;
            /** @description Bounces that marked a sent step (and its enrollment) bounced. */
            bounced: number;
            /** @description Complaints that unsubscribed a contact or any of its enrollments. */
            unsubscribed: number;
            /** @description Unknown recipients or message ids, and reports already applied (replays). */
            ignored: number;
        };
        RepliedEnrollment: {
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            email: string;
            /** Format: date-time */
            sent_at: string | null;
            /** Format: date-time */
            replied_at: string;
            /** @description From the first send to the reply, two decimals; null when no send time is known. */
            hours_to_reply: number | null;
            /**
             * @description The category of the enrollment's latest reply (see GET /replies); null when no reply text is stored.
             * @enum {unknown}
             */
            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other" | null;
        };
        Reply: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            kind: "reply" | "auto_reply";
            /** Format: uuid */
            campaign_id: string | null;
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /**
             * Format: uuid
             * @description The inbox that received it.
             */
            credential_id: string;
            from_email: string | null;
            from_name: string | null;
            subject: string;
            /** Format: date-time */
            received_at: string;
            /**
             * Format: date-time
             * @description The message's Date header.
             */
            sent_at: string | null;
            /** @description The reply's Message-ID, with its angle brackets. */
            message_id: string | null;
            /**
             * @description What the reply says: by the rules, a model, or a person (PATCH /replies/{id}).
             * @enum {unknown}
             */
            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
            /**
             * @description Who set the category: rules, model or manual.
             * @enum {unknown}
             */
            category_source: "rules" | "model" | "manual";
            /** @description The plain text without the quoted history (at most 16 KiB). */
            body_text: string;
            /** @description Answers given to it, oldest first. */
            answers: components["schemas"]["ReplyAnswer"][];
        };
        ReplyAnswer: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            reply_id: string;
            /** @enum {unknown} */
            state: "queued" | "sending" | "sent" | "failed";
            subject: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            sent_at: string | null;
            /** @description The server's answer when the answer failed. */
            error: string | null;
        };
        ReplyCategorizedData: {
            /**
             * Format: uuid
             * @description The reply (GET /replies/:id).
             */
            reply_id: string;
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: idn-email */
            contact_email: string;
            /** Format: uuid */
            campaign_id: string;
            /**
             * @description What the reply says.
             * @enum {unknown}
             */
            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
            /**
             * @description rules: the service's rules; model: the configured classifier; manual: a person (PATCH /replies/:id).
             * @enum {unknown}
             */
            category_source: "rules" | "model" | "manual";
            /**
             * @description The category before this one; null for a reply's first.
             * @enum {unknown}
             */
            previous_category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other" | null;
            /** Format: date-time */
            categorized_at: string;
        };
        ReplySummary: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            kind: "reply" | "auto_reply";
            /** Format: uuid */
            campaign_id: string | null;
            /** Format: uuid */
            enrollment_id: string;
            /** Format: uuid */
            contact_id: string;
            /**
             * Format: uuid
             * @description The inbox that received it.
             */
            credential_id: string;
            from_email: string | null;
            from_name: string | null;
            subject: string;
            /** Format: date-time */
            received_at: string;
            /**
             * Format: date-time
             * @description The message's Date header.
             */
            sent_at: string | null;
            /** @description The reply's Message-ID, with its angle brackets. */
            message_id: string | null;
            /**
             * @description What the reply says: by the rules, a model, or a person (PATCH /replies/{id}).
             * @enum {unknown}
             */
            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
            /**
             * @description Who set the category: rules, model or manual.
             * @enum {unknown}
             */
            category_source: "rules" | "model" | "manual";
            /** @description The start of body_text, whitespace collapsed. */
            snippet: string;
        };
        ResumedCampaign: {
            /** Format: uuid */
            id: string;
            /** @enum {unknown} */
            status: "active" | "paused";
            /** @description manual after POST /pause; otherwise why the service paused it. */
            paused_reason: string | null;
            /** @description Enrollments whose held sends were, or are being, planned again from now. */
            rescheduled: number;
        };
        RotatedWebhookSecret: {
            /** Format: uuid */
            id: string;
            /** @description The signing secret, shown only here: store it to verify X-Service-Signature. */
            secret: string;
            /**
             * Format: date-time
             * @description Until then deliveries carry a second v1 signed with the previous secret.
             */
            previous_secret_expires_at: string;
        };
        SendForecast: {
            /** Format: uuid */
            campaign_id: string;
            /** @description The zone the days are counted in: the schedule's, UTC without one. */
            timezone: string;
            days: {
                /** Format: date */
                date: string;
                step_1: number;
                follow_ups: number;
                total: number;
            }[];
            /** @description The sum of total over the days. */
            total_scheduled: number;
            /** @description Scheduled sends due before today. */
            overdue: number;
            /** @description Pending enrollments no dispatch has planned yet. */
            undispatched_pending: number;
        };
        SequenceStep: {
            /** Format: uuid */
            id: string;
            position: number;
            subject: string;
            body_html: string;
            variants: {
                /** Format: uuid */
                id: string;
                subject: string;
                body_html: string;
                weight: number;
            }[] | null;
            delay_minutes: number;
            /**
             * @description Judged when the step falls due: none, or whether the contact opened or clicked an earlier step (opens are unreliable). A step whose condition fails is skipped.
             * @enum {unknown}
             */
            condition: "none" | "opened" | "not_opened" | "clicked" | "not_clicked";
            /** @description Sent as text/plain only (the body turned into text, the unsubscribe URL on its own line): no HTML part, no open pixel, no click redirect, so its opens are not tracked. */
            text_only: boolean;
        };
        Signup: {
            /** Format: uuid */
            account_id: string;
            /** @description free: every account starts on the free plan. */
            plan_slug: string;
            api_key: {
                /** Format: uuid */
                id: string;
                prefix: string;
                /** @description The account's first API key, shown only in this answer: send it as `Authorization: Bearer <key>`. */
                plaintext: string;
            };
        };
        /** @description An inbox of the campaign. Passwords are never part of a response. */
        SmtpCredential: {
            /** Format: uuid */
            id: string;
            label: string;
            /** Format: idn-email */
            from_email: string;
            from_name: string | null;
            smtp_host: string;
            smtp_port: number;
            smtp_secure: boolean;
            smtp_username: string;
            auth: {
                /** @enum {unknown} */
                type: "password";
            } | {
                /** @enum {unknown} */
                type: "oauth2";
                /** @enum {unknown} */
                provider: "google" | "microsoft";
                /**
                 * Format: uuid
                 * @description The OAuth connection it logs in through (GET /oauth/connections/:id).
                 */
                connection_id: string;
                /** Format: idn-email */
                email: string;
                /**
                 * @description auth_failed: the provider refused the refresh token (revoked, expired); reconnect the mailbox.
                 * @enum {unknown}
                 */
                status: "connected" | "auth_failed";
                /** @description Why the mailbox cannot log in, readable; null when connected. */
                error: string | null;
            };
            daily_limit: number;
            tracking_domain: string | null;
            /**
             * @description The inbox's mail provider as set (match_recipient_provider); null: inferred from its OAuth2 connection, else from its SMTP host.
             * @enum {unknown}
             */
            provider: "google" | "microsoft" | "other" | null;
            ramp: {
                start_per_day: number;
                increase_per_day: number;
            } | null;
            /** Format: date-time */
            ramp_started_at: string | null;
            has_imap: boolean;
            imap_host: string | null;
            imap_port: number | null;
            imap_secure: boolean | null;
            imap_username: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description Paused by a bounce or complaint spike until then: nothing is sent through the inbox and its ramp is held meanwhile (POST .../reenable ends it).
             */
            paused_until: string | null;
            paused_reason: string | null;
            /** @description The inbox's own last failure (TLS, login, refused host), cleared by the next successful send. */
            last_error: string | null;
            /** Format: date-time */
            last_error_at: string | null;
            /**
             * @description Reply detection: null without IMAP settings, pending until first checked, error while it fails.
             * @enum {unknown}
             */
            imap_status: "ok" | "pending" | "error" | null;
            imap_last_error: string | null;
            /** Format: date-time */
            imap_last_checked_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Subscription: {
            /** Format: uuid */
            account_id: string;
            plan: components["schemas"]["Plan"];
            /** @description The payment provider's subscription status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired or paused; free for an account that never subscribed. active, trialing and past_due keep the subscription's plan; any other puts the account on free limits. */
            status: string;
            provider_customer_id: string | null;
            provider_subscription_id: string | null;
            /**
             * Format: date-time
             * @description The billing period sends are counted in.
             */
            current_period_start: string;
            /** Format: date-time */
            current_period_end: string;
            quotas: components["schemas"]["Quotas"];
        };
        TestSendResult: {
            /** Format: uuid */
            campaign_id: string;
            /** @description Addresses queued. */
            queued: number;
            /** @description The addresses queued: lower-cased, de-duplicated, in the order given. */
            emails: string[];
            /** @description Addresses left out: they unsubscribed in this account. */
            skipped: {
                /** Format: idn-email */
                email: string;
                /** @enum {unknown} */
                reason: "unsubscribed";
            }[];
            /** @description Today's test-send allowance (addresses per account per UTC day). */
            allowance: {
                limit: number;
                remaining: number;
            };
        };
        /** @description An outbound webhook. Its secret is shown only by create and rotate_secret. */
        Webhook: {
            /** Format: uuid */
            id: string;
            /** @description The receiver's absolute http(s) URL, as normalized when saved. */
            url: string;
            description: string | null;
            /** @description "*" is the v1 event types; opt-in types only when named. */
            event_filters: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
            /**
             * Format: date-time
             * @description Set when consecutive failed deliveries disabled it; PATCH disabled_at: null re-enables it.
             */
            disabled_at: string | null;
            consecutive_failures: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhook_id: string;
            /**
             * Format: uuid
             * @description null for a test ping (webhook.test).
             */
            event_id: string | null;
            /** @enum {unknown} */
            event_type: "enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "webhook.test";
            /** @enum {unknown} */
            status: "pending" | "succeeded" | "failed" | "skipped";
            attempts_made: number;
            max_attempts: number;
            /** Format: date-time */
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at: string | null;
            /** @description Oldest first. */
            attempts: {
                number: number;
                /** @description The receiver's HTTP status; null when no answer came. */
                status_code: number | null;
                /** @description Why the attempt was not a 2xx: a network error, a timeout, a refused address, a redirect. */
                error: string | null;
                /** @description The start of the receiver's answer, bounded. */
                response_excerpt: string | null;
                duration_ms: number;
                /** Format: date-time */
                created_at: string;
            }[];
        };
        WebhookTestData: {
            /** Format: uuid */
            webhook_id: string;
            message: string;
        };
        WebhookTestResult: {
            delivery: components["schemas"]["WebhookDelivery"];
            /** @description true when the receiver answered 2xx. */
            success: boolean;
            /** @description The receiver's HTTP status; null when no answer came. */
            status_code: number | null;
            duration_ms: number;
            /** @description Why it was not a 2xx: a network error, a timeout, a refused address, a redirect. */
            error: string | null;
        };
    };
    responses: never;
    parameters: {
        /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
        "Idempotency-Key": string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id (the caller's X-Request-Id when it sent a well-formed one); error bodies may repeat it as request_id. */
        "X-Request-Id": string;
        /** @description Requests the tighter budget allows per window. */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets. */
        "RateLimit-Reset": number;
        /** @description The budgets that apply, as `<limit>;w=<seconds>`. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description true when another page follows, false on the last page. */
        "X-Has-More": "true" | "false";
        /** @description `<url of the next page>; rel="next"`, present when X-Has-More is true. */
        Link: string;
        /** @description true on an answer replayed for a repeated Idempotency-Key. */
        "Idempotent-Replay": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the account's active keys, newest first, without plaintext. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    label: string;
                    /**
                     * @default direct
                     * @enum {string}
                     */
                    client_kind?: "direct" | "mcp" | "sdk";
                } | {
                    api_key: {
                        label: string;
                        /**
                         * @default direct
                         * @enum {string}
                         */
                        client_kind?: "direct" | "mcp" | "sdk";
                    };
                };
            };
        };
        responses: {
            /** @description The key, with its plaintext. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`quota_exceeded`](http://localhost:3000/docs/errors/quota_exceeded): The account has reached one of its quotas; delete what it no longer needs, or move to a larger plan.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "quota_exceeded";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`api_key_not_found`](http://localhost:3000/docs/errors/api_key_not_found): API key not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "api_key_not_found";
                    };
                };
            };
            /** @description [`cannot_revoke_last_key`](http://localhost:3000/docs/errors/cannot_revoke_last_key): The last active API key of an account cannot be revoked. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "cannot_revoke_last_key";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription, with every quota's limit and current count. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getBillingUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sends of the current period against the plan's monthly limit. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingUsage"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    plan_slug: string;
                    success_url?: string;
                    cancel_url?: string;
                };
            };
        };
        responses: {
            /** @description The checkout session. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`plan_not_found`](http://localhost:3000/docs/errors/plan_not_found): Plan not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "plan_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`plan_not_purchasable`](http://localhost:3000/docs/errors/plan_not_purchasable): This plan cannot be purchased.
             *
             *     [`no_provider_customer`](http://localhost:3000/docs/errors/no_provider_customer): The account has no payment-provider customer.
             *
             *     [`unprocessable`](http://localhost:3000/docs/errors/unprocessable): The request cannot be processed.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "plan_not_purchasable" | "no_provider_customer" | "unprocessable";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    return_url?: string;
                };
            };
        };
        responses: {
            /** @description The portal session. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`no_provider_customer`](http://localhost:3000/docs/errors/no_provider_customer): The account has no payment-provider customer.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "no_provider_customer";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listBlocklistEntries: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                kind?: "email" | "domain";
                value?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BlocklistEntry"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    addBlocklistEntries: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    emails?: string[];
                    /** @default [] */
                    domains?: string[];
                    reason?: string | null;
                } | {
                    blocklist: {
                        /** @default [] */
                        emails?: string[];
                        /** @default [] */
                        domains?: string[];
                        reason?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description The distinct values sent: new now, or already on the list. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        added: number;
                        already_blocked: number;
                    };
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteBlocklistEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The entry's id, or its value (`ann@example.com`, `example.com`, `@example.com`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`blocklist_entry_not_found`](http://localhost:3000/docs/errors/blocklist_entry_not_found): Blocklist entry not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "blocklist_entry_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    enrollContactImport: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contact_import_id: string;
                    /** @default 1 */
                    batch_number?: number;
                    /** @default 0 */
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description What the import came to in this campaign. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollContactImportResult"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`contact_import_not_found`](http://localhost:3000/docs/errors/contact_import_not_found): Contact import not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "contact_import_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    enrollContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contact_id: string;
                    /** @default 1 */
                    batch_number?: number;
                    /** @default 0 */
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description Not enrolled: a duplicate across sibling campaigns. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactNotEnrolled"];
                };
            };
            /** @description Enrolled. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactEnrolled"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`contact_not_found`](http://localhost:3000/docs/errors/contact_not_found): Contact not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "contact_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`contact_already_enrolled`](http://localhost:3000/docs/errors/contact_already_enrolled): The contact is already enrolled in this campaign.
             *
             *     [`unprocessable`](http://localhost:3000/docs/errors/unprocessable): The request cannot be processed.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "contact_already_enrolled" | "unprocessable";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    dispatchCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    batch_number?: number | null;
                };
            };
        };
        responses: {
            /** @description The batch was queued for the dispatcher, or held with the reason. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DispatchResult"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`plan_limit_reached`](http://localhost:3000/docs/errors/plan_limit_reached): The account has reached its plan's monthly send limit. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "plan_limit_reached";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`no_pending_enrollments`](http://localhost:3000/docs/errors/no_pending_enrollments): There are no pending enrollments to dispatch.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "no_pending_enrollments";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    pauseCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, paused. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PausedCampaign"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`campaign_not_active`](http://localhost:3000/docs/errors/campaign_not_active): The campaign is not active.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "campaign_not_active";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    resumeCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign, active. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResumedCampaign"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`campaign_not_paused`](http://localhost:3000/docs/errors/campaign_not_paused): The campaign is not paused.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "campaign_not_paused";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    reenableSmtpCredential: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
                /** @description The inbox's (SMTP credential's) id. */
                credential_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SmtpCredential"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`smtp_credential_not_found`](http://localhost:3000/docs/errors/smtp_credential_not_found): SMTP credential not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "smtp_credential_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    testSendCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    emails?: string[];
                };
            };
        };
        responses: {
            /** @description The addresses queued, the ones skipped, and what is left of today's allowance. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestSendResult"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`no_emails_provided`](http://localhost:3000/docs/errors/no_emails_provided): No email addresses were provided.
             *
             *     [`unprocessable`](http://localhost:3000/docs/errors/unprocessable): The request cannot be processed.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "no_emails_provided" | "unprocessable";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getSendForecast: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The forecast. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendForecast"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listCampaignSkips: {
        parameters: {
            query?: {
                kind?: "mx_invalid" | "cross_campaign_duplicate" | "blocklisted" | "condition_not_met" | "disposable" | "role_account";
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of skips, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentSkip"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listCampaignReplies: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of replied enrollments, newest reply first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RepliedEnrollment"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getEnrollment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
                /** @description The enrollment's id (from enroll_contact, events and replies). */
                enrollment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The enrollment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Enrollment"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`enrollment_not_found`](http://localhost:3000/docs/errors/enrollment_not_found): Enrollment not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "enrollment_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getCampaignAnalytics: {
        parameters: {
            query: {
                group_by: "step" | "day" | "variant";
                from?: string;
                to?: string;
            };
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counters and rates per group, and their totals. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignAnalytics"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listCampaigns: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of campaigns, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSummary"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createCampaign: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    outreach_id?: string | null;
                    /** @default 120 */
                    min_wait_seconds?: number;
                    /** @default 420 */
                    max_wait_seconds?: number;
                    /**
                     * @default batch
                     * @enum {string}
                     */
                    jitter_scope?: "batch" | "inbox";
                    schedule?: {
                        /** @default UTC */
                        timezone?: string;
                        /**
                         * @default [
                         *       "mon",
                         *       "tue",
                         *       "wed",
                         *       "thu",
                         *       "fri",
                         *       "sat",
                         *       "sun"
                         *     ]
                         */
                        days?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                        start_time: string;
                        end_time: string;
                        /** @default false */
                        use_contact_timezone?: boolean;
                        /** @default [] */
                        skip_dates?: string[];
                    } | null;
                    /** @default false */
                    verify_email_mx?: boolean;
                    /** @default true */
                    skip_disposable?: boolean;
                    /** @default false */
                    skip_role_accounts?: boolean;
                    /** @default false */
                    match_recipient_provider?: boolean;
                    /** @default 8 */
                    bounce_rate_threshold?: number;
                    daily_limit?: number | null;
                    unsubscribe_footer?: string | null;
                    /** @default false */
                    track_clicks?: boolean;
                    tracking_domain?: string | null;
                    /**
                     * @default contact
                     * @enum {string}
                     */
                    stop_on_reply_scope?: "contact" | "domain";
                    /** @default false */
                    stop_on_auto_reply?: boolean;
                    /** @default false */
                    stop_on_click?: boolean;
                    /** @default true */
                    unsubscribe_on_request?: boolean;
                    /** @default true */
                    stop_on_wrong_person?: boolean;
                    /** @default 1 */
                    out_of_office_days_after_return?: number;
                    /** @default 3 */
                    out_of_office_default_delay_days?: number;
                    /** @default [] */
                    reply_actions?: {
                        /** @enum {string} */
                        category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person";
                        move_to_campaign_id: string;
                    }[];
                    on_completion?: {
                        move_to_campaign_id: string;
                        /** @default 3 */
                        wait_days?: number;
                    } | null;
                    smtp_credentials: {
                        label: string;
                        /** Format: email */
                        from_email: string;
                        from_name?: string | null;
                        auth?: {
                            /** @constant */
                            type: "oauth2";
                            /** @enum {string} */
                            provider: "google" | "microsoft";
                            refresh_token?: string;
                            /** Format: uuid */
                            connection_id?: string;
                        };
                        /** Format: hostname */
                        smtp_host?: string;
                        smtp_port?: number;
                        smtp_secure?: boolean;
                        smtp_username?: string;
                        smtp_password?: string;
                        daily_limit?: number;
                        ramp?: {
                            start_per_day: number;
                            increase_per_day: number;
                        } | null;
                        tracking_domain?: string | null;
                        /** @enum {string|null} */
                        provider?: "google" | "microsoft" | "other" | null;
                        /** Format: hostname */
                        imap_host?: string | null;
                        imap_port?: number | null;
                        imap_secure?: boolean | null;
                        imap_username?: string | null;
                        imap_password?: string | null;
                    }[];
                    sequence_steps: {
                        position: number;
                        subject?: string;
                        body_html?: string;
                        variants?: {
                            subject: string;
                            body_html: string;
                            /** @default 1 */
                            weight?: number;
                        }[];
                        /** @default 0 */
                        delay_minutes?: number;
                        /** @default false */
                        text_only?: boolean;
                        /**
                         * @default none
                         * @enum {string}
                         */
                        condition?: "none" | "opened" | "not_opened" | "clicked" | "not_clicked";
                    }[];
                } | {
                    campaign: {
                        name: string;
                        outreach_id?: string | null;
                        /** @default 120 */
                        min_wait_seconds?: number;
                        /** @default 420 */
                        max_wait_seconds?: number;
                        /**
                         * @default batch
                         * @enum {string}
                         */
                        jitter_scope?: "batch" | "inbox";
                        schedule?: {
                            /** @default UTC */
                            timezone?: string;
                            /**
                             * @default [
                             *       "mon",
                             *       "tue",
                             *       "wed",
                             *       "thu",
                             *       "fri",
                             *       "sat",
                             *       "sun"
                             *     ]
                             */
                            days?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                            start_time: string;
                            end_time: string;
                            /** @default false */
                            use_contact_timezone?: boolean;
                            /** @default [] */
                            skip_dates?: string[];
                        } | null;
                        /** @default false */
                        verify_email_mx?: boolean;
                        /** @default true */
                        skip_disposable?: boolean;
                        /** @default false */
                        skip_role_accounts?: boolean;
                        /** @default false */
                        match_recipient_provider?: boolean;
                        /** @default 8 */
                        bounce_rate_threshold?: number;
                        daily_limit?: number | null;
                        unsubscribe_footer?: string | null;
                        /** @default false */
                        track_clicks?: boolean;
                        tracking_domain?: string | null;
                        /**
                         * @default contact
                         * @enum {string}
                         */
                        stop_on_reply_scope?: "contact" | "domain";
                        /** @default false */
                        stop_on_auto_reply?: boolean;
                        /** @default false */
                        stop_on_click?: boolean;
                        /** @default true */
                        unsubscribe_on_request?: boolean;
                        /** @default true */
                        stop_on_wrong_person?: boolean;
                        /** @default 1 */
                        out_of_office_days_after_return?: number;
                        /** @default 3 */
                        out_of_office_default_delay_days?: number;
                        /** @default [] */
                        reply_actions?: {
                            /** @enum {string} */
                            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person";
                            move_to_campaign_id: string;
                        }[];
                        on_completion?: {
                            move_to_campaign_id: string;
                            /** @default 3 */
                            wait_days?: number;
                        } | null;
                        smtp_credentials: {
                            label: string;
                            /** Format: email */
                            from_email: string;
                            from_name?: string | null;
                            auth?: {
                                /** @constant */
                                type: "oauth2";
                                /** @enum {string} */
                                provider: "google" | "microsoft";
                                refresh_token?: string;
                                /** Format: uuid */
                                connection_id?: string;
                            };
                            /** Format: hostname */
                            smtp_host?: string;
                            smtp_port?: number;
                            smtp_secure?: boolean;
                            smtp_username?: string;
                            smtp_password?: string;
                            daily_limit?: number;
                            ramp?: {
                                start_per_day: number;
                                increase_per_day: number;
                            } | null;
                            tracking_domain?: string | null;
                            /** @enum {string|null} */
                            provider?: "google" | "microsoft" | "other" | null;
                            /** Format: hostname */
                            imap_host?: string | null;
                            imap_port?: number | null;
                            imap_secure?: boolean | null;
                            imap_username?: string | null;
                            imap_password?: string | null;
                        }[];
                        sequence_steps: {
                            position: number;
                            subject?: string;
                            body_html?: string;
                            variants?: {
                                subject: string;
                                body_html: string;
                                /** @default 1 */
                                weight?: number;
                            }[];
                            /** @default 0 */
                            delay_minutes?: number;
                            /** @default false */
                            text_only?: boolean;
                            /**
                             * @default none
                             * @enum {string}
                             */
                            condition?: "none" | "opened" | "not_opened" | "clicked" | "not_clicked";
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description The campaign, with its statistics (all zero). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`outreach_not_found`](http://localhost:3000/docs/errors/outreach_not_found): Outreach not found.
             *
             *     [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`oauth_connection_not_found`](http://localhost:3000/docs/errors/oauth_connection_not_found): OAuth connection not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "outreach_not_found" | "campaign_not_found" | "oauth_connection_not_found";
                    };
                };
            };
            /**
             * @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request.
             *
             *     [`oauth_not_configured`](http://localhost:3000/docs/errors/oauth_not_configured): OAuth2 mailboxes of this provider are not configured on this deployment (its OAuth client id and secret).
             */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict" | "oauth_not_configured";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`quota_exceeded`](http://localhost:3000/docs/errors/quota_exceeded): The account has reached one of its quotas; delete what it no longer needs, or move to a larger plan.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "quota_exceeded";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The campaign: settings, steps, inboxes and statistics. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    updateCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    outreach_id?: string | null;
                    min_wait_seconds?: number;
                    max_wait_seconds?: number;
                    /** @enum {string} */
                    jitter_scope?: "batch" | "inbox";
                    schedule?: {
                        /** @default UTC */
                        timezone?: string;
                        /**
                         * @default [
                         *       "mon",
                         *       "tue",
                         *       "wed",
                         *       "thu",
                         *       "fri",
                         *       "sat",
                         *       "sun"
                         *     ]
                         */
                        days?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                        start_time: string;
                        end_time: string;
                        /** @default false */
                        use_contact_timezone?: boolean;
                        /** @default [] */
                        skip_dates?: string[];
                    } | null;
                    verify_email_mx?: boolean;
                    skip_disposable?: boolean;
                    skip_role_accounts?: boolean;
                    match_recipient_provider?: boolean;
                    bounce_rate_threshold?: number;
                    daily_limit?: number | null;
                    unsubscribe_footer?: string | null;
                    track_clicks?: boolean;
                    tracking_domain?: string | null;
                    /** @enum {string} */
                    stop_on_reply_scope?: "contact" | "domain";
                    stop_on_auto_reply?: boolean;
                    stop_on_click?: boolean;
                    unsubscribe_on_request?: boolean;
                    stop_on_wrong_person?: boolean;
                    out_of_office_days_after_return?: number;
                    out_of_office_default_delay_days?: number;
                    reply_actions?: {
                        /** @enum {string} */
                        category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person";
                        move_to_campaign_id: string;
                    }[];
                    on_completion?: {
                        move_to_campaign_id: string;
                        /** @default 3 */
                        wait_days?: number;
                    } | null;
                } | {
                    campaign: {
                        name?: string;
                        outreach_id?: string | null;
                        min_wait_seconds?: number;
                        max_wait_seconds?: number;
                        /** @enum {string} */
                        jitter_scope?: "batch" | "inbox";
                        schedule?: {
                            /** @default UTC */
                            timezone?: string;
                            /**
                             * @default [
                             *       "mon",
                             *       "tue",
                             *       "wed",
                             *       "thu",
                             *       "fri",
                             *       "sat",
                             *       "sun"
                             *     ]
                             */
                            days?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                            start_time: string;
                            end_time: string;
                            /** @default false */
                            use_contact_timezone?: boolean;
                            /** @default [] */
                            skip_dates?: string[];
                        } | null;
                        verify_email_mx?: boolean;
                        skip_disposable?: boolean;
                        skip_role_accounts?: boolean;
                        match_recipient_provider?: boolean;
                        bounce_rate_threshold?: number;
                        daily_limit?: number | null;
                        unsubscribe_footer?: string | null;
                        track_clicks?: boolean;
                        tracking_domain?: string | null;
                        /** @enum {string} */
                        stop_on_reply_scope?: "contact" | "domain";
                        stop_on_auto_reply?: boolean;
                        stop_on_click?: boolean;
                        unsubscribe_on_request?: boolean;
                        stop_on_wrong_person?: boolean;
                        out_of_office_days_after_return?: number;
                        out_of_office_default_delay_days?: number;
                        reply_actions?: {
                            /** @enum {string} */
                            category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person";
                            move_to_campaign_id: string;
                        }[];
                        on_completion?: {
                            move_to_campaign_id: string;
                            /** @default 3 */
                            wait_days?: number;
                        } | null;
                    };
                };
            };
        };
        responses: {
            /** @description The campaign as changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`outreach_not_found`](http://localhost:3000/docs/errors/outreach_not_found): Outreach not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "outreach_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    previewCampaign: {
        parameters: {
            query: {
                contact_id: string;
                position?: number;
            };
            header?: never;
            path: {
                /** @description The campaign's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every step as that contact would receive it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignPreview"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found.
             *
             *     [`contact_not_found`](http://localhost:3000/docs/errors/contact_not_found): Contact not found.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found" | "contact_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listContactImports: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of imports, newest first, without invalid_rows. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImportSummary"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createContactImport: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    /** @description The rows. A row that breaks these rules does not fail the import: it is counted in invalid_count and reported in invalid_rows (the first 1000) with its reason. */
                    contacts: {
                        /** Format: email */
                        email: string;
                        first_name?: string | null;
                        last_name?: string | null;
                        company?: string | null;
                        timezone?: string | null;
                        /** @description The values of {{custom.<key>}} tags: a flat object of at most 50 keys, whose values are strings (trimmed, at most 1000 characters, no NUL), finite numbers or booleans, at most 8192 bytes as compact JSON. null is no custom fields. A re-import merges them key by key over the stored ones. */
                        custom_fields?: {
                            [key: string]: string | number | boolean;
                        } | null;
                    }[];
                } | {
                    contact_import: {
                        name?: string | null;
                        /** @description The rows. A row that breaks these rules does not fail the import: it is counted in invalid_count and reported in invalid_rows (the first 1000) with its reason. */
                        contacts: {
                            /** Format: email */
                            email: string;
                            first_name?: string | null;
                            last_name?: string | null;
                            company?: string | null;
                            timezone?: string | null;
                            /** @description The values of {{custom.<key>}} tags: a flat object of at most 50 keys, whose values are strings (trimmed, at most 1000 characters, no NUL), finite numbers or booleans, at most 8192 bytes as compact JSON. null is no custom fields. A re-import merges them key by key over the stored ones. */
                            custom_fields?: {
                                [key: string]: string | number | boolean;
                            } | null;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description The import with its counts and its invalid rows. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImport"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`no_contacts_provided`](http://localhost:3000/docs/errors/no_contacts_provided): No contacts were provided.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "no_contacts_provided";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getContactImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The import's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import with its invalid rows. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImport"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`contact_import_not_found`](http://localhost:3000/docs/errors/contact_import_not_found): Contact import not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "contact_import_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listContacts: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contacts, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    verifyContacts: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    emails: string[];
                };
            };
        };
        responses: {
            /** @description The checks of each address, in the order given. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AddressCheck"][];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contact's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`contact_not_found`](http://localhost:3000/docs/errors/contact_not_found): Contact not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "contact_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getReferencePage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getReferencePageAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The asset: `redoc.standalone.js` or `docs-page.js`. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": unknown;
                };
            };
            /** @description [`not_found`](http://localhost:3000/docs/errors/not_found): The requested resource does not exist. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listErrorPages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getErrorPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An error code, e.g. `validation_failed`. */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description [`not_found`](http://localhost:3000/docs/errors/not_found): The requested resource does not exist. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getDomainHealth: {
        parameters: {
            query?: {
                refresh?: boolean;
                smtp_host?: string;
                dkim_selector?: string;
            };
            header?: never;
            path: {
                /** @description The domain, e.g. `example.com` (lower-cased, a trailing dot dropped). */
                domain: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain's report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainHealth"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    checkDomainHealth: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The domain, e.g. `example.com` (lower-cased, a trailing dot dropped). */
                domain: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** Format: hostname */
                    smtp_host?: string;
                    dkim_selector?: string;
                };
            };
        };
        responses: {
            /** @description The domain's new report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainHealth"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                type?: "enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | null;
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        /** @description postgres and redis. */
                        checks: {
                            [key: string]: "ok";
                        };
                    };
                };
            };
            /** @description Not ready: a dependency is unavailable, or the replica is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "unavailable";
                        /** @description postgres and redis (ok or unavailable), or shutdown while the replica stops. */
                        checks: {
                            [key: string]: "ok" | "unavailable" | "shutting down";
                        };
                    };
                };
            };
        };
    };
    getMcpStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`method_not_allowed`](http://localhost:3000/docs/errors/method_not_allowed): This method is not allowed on this path; the Allow header lists the ones that are. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "method_not_allowed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    postMcpMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description A JSON-RPC request or notification (or a batch of up to 100). The MCP-Protocol-Version header, when sent, must be a version this server speaks. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["JsonRpcMessage"] | components["schemas"]["JsonRpcMessage"][];
            };
        };
        responses: {
            /** @description The JSON-RPC response (a batch: the responses to its requests). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcMessage"] | components["schemas"]["JsonRpcMessage"][];
                };
            };
            /** @description Accepted: the body held only notifications or responses, which get no answer. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /**
             * @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator.
             *
             *     [`origin_not_allowed`](http://localhost:3000/docs/errors/origin_not_allowed): Requests from this web page's origin (or to this host name) are not allowed.
             */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended" | "origin_not_allowed";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteMcpSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`method_not_allowed`](http://localhost:3000/docs/errors/method_not_allowed): This method is not allowed on this path; the Allow header lists the ones that are. */
            405: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "method_not_allowed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    authorizeOAuthMailbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description `google` or `microsoft`. */
                provider: string;
            };
            cookie?: never;
        };
        /** @description None, `{}`, or `{login_hint}`. */
        requestBody?: {
            content: {
                "application/json": {
                    /** Format: email */
                    login_hint?: string;
                };
            };
        };
        responses: {
            /** @description The URL to open. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthAuthorization"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`oauth_provider_not_found`](http://localhost:3000/docs/errors/oauth_provider_not_found): Unknown OAuth provider: google or microsoft. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_provider_not_found";
                    };
                };
            };
            /**
             * @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request.
             *
             *     [`oauth_not_configured`](http://localhost:3000/docs/errors/oauth_not_configured): OAuth2 mailboxes of this provider are not configured on this deployment (its OAuth client id and secret).
             */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict" | "oauth_not_configured";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    oauthCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                error?: string;
                error_description?: string;
            };
            header?: never;
            path: {
                /** @description `google` or `microsoft`. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection (JSON), or a page saying `Mailbox connected: <email>` with its connection_id (text/html). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectedMailbox"];
                };
            };
            /**
             * @description [`invalid_oauth_state`](http://localhost:3000/docs/errors/invalid_oauth_state): The OAuth state is missing, forged, expired, already used or made for another provider: start again with POST /oauth/:provider/authorize.
             *
             *     [`oauth_access_denied`](http://localhost:3000/docs/errors/oauth_access_denied): The mailbox's owner did not grant access at the provider (or the provider reported an error): nothing was connected.
             *
             *     [`oauth_code_refused`](http://localhost:3000/docs/errors/oauth_code_refused): The provider refused the authorization code (expired or already used): start again with POST /oauth/:provider/authorize.
             */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "invalid_oauth_state" | "oauth_access_denied" | "oauth_code_refused";
                    };
                };
            };
            /** @description [`oauth_provider_not_found`](http://localhost:3000/docs/errors/oauth_provider_not_found): Unknown OAuth provider: google or microsoft. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_provider_not_found";
                    };
                };
            };
            /** @description [`oauth_not_configured`](http://localhost:3000/docs/errors/oauth_not_configured): OAuth2 mailboxes of this provider are not configured on this deployment (its OAuth client id and secret). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_not_configured";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description [`oauth_provider_unavailable`](http://localhost:3000/docs/errors/oauth_provider_unavailable): The mailbox provider's token endpoint failed or gave an unusable answer; try again. */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_provider_unavailable";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listOAuthConnections: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the account's connections, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthConnection"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getOAuthConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connection's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection (never its tokens). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthConnection"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`oauth_connection_not_found`](http://localhost:3000/docs/errors/oauth_connection_not_found): OAuth connection not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_connection_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteOAuthConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connection's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`oauth_connection_not_found`](http://localhost:3000/docs/errors/oauth_connection_not_found): OAuth connection not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_connection_not_found";
                    };
                };
            };
            /** @description [`oauth_connection_in_use`](http://localhost:3000/docs/errors/oauth_connection_in_use): Credentials still log in through this OAuth connection: delete their campaigns first. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "oauth_connection_in_use";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listOutreaches: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of outreaches, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outreach"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createOutreach: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default false */
                    unique_contacts?: boolean;
                } | {
                    outreach: {
                        name: string;
                        /** @default false */
                        unique_contacts?: boolean;
                    };
                };
            };
        };
        responses: {
            /** @description The outreach. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outreach"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getOutreach: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The outreach's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The outreach with its campaigns' ids. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outreach"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`outreach_not_found`](http://localhost:3000/docs/errors/outreach_not_found): Outreach not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "outreach_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteOutreach: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The outreach's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The outreach as it was: campaign_ids names the campaigns detached. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outreach"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`outreach_not_found`](http://localhost:3000/docs/errors/outreach_not_found): Outreach not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "outreach_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    updateOutreach: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The outreach's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    unique_contacts?: boolean;
                } | {
                    outreach: {
                        name?: string;
                        unique_contacts?: boolean;
                    };
                };
            };
        };
        responses: {
            /** @description The outreach as changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outreach"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`outreach_not_found`](http://localhost:3000/docs/errors/outreach_not_found): Outreach not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "outreach_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    receiveProviderEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Received. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderEventReceipt"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`invalid_signature`](http://localhost:3000/docs/errors/invalid_signature): The signature check failed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "invalid_signature";
                    };
                };
            };
            /** @description [`internal_error`](http://localhost:3000/docs/errors/internal_error): Something went wrong on our side. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "internal_error";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The purchasable plans. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicPlan"][];
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    name?: string | null;
                };
            };
        };
        responses: {
            /** @description The account and its first key. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Signups the client address may make per hour. */
                    "RateLimit-Limit"?: number;
                    /** @description Signups left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the full budget is back. */
                    "RateLimit-Reset"?: number;
                    /** @description `<limit>;w=3600`. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Signup"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    receiveRelayReport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    events: ({
                        /** @enum {unknown} */
                        type: "bounce" | "complaint";
                        /** @description The recipient the report is about. */
                        email: string;
                        /** @description The Message-ID of our email: matches the report to the step sent. */
                        message_id?: string | null;
                        /** @description Kept as a diagnostic (cut to 1,000 characters). */
                        reason?: string | null;
                        /** @description When it happened: an ISO 8601 date or date-time. Without message_id, the report is matched to the most recent step sent to the address before it. */
                        occurred_at?: string | null;
                    } & {
                        [key: string]: unknown;
                    })[];
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description What the report came to. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayReportSummary"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`invalid_signature`](http://localhost:3000/docs/errors/invalid_signature): The signature check failed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "invalid_signature";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listReplies: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                campaign_id?: string;
                kind?: "reply" | "auto_reply";
                category?: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of replies, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplySummary"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`campaign_not_found`](http://localhost:3000/docs/errors/campaign_not_found): Campaign not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "campaign_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getReply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reply's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reply with its whole `body_text` (without the quoted history) and the answers given to it, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reply"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`reply_not_found`](http://localhost:3000/docs/errors/reply_not_found): Reply not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "reply_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    categorizeReply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reply's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
                } | {
                    reply: {
                        /** @enum {string} */
                        category: "interested" | "not_interested" | "out_of_office" | "unsubscribe_request" | "wrong_person" | "other";
                    };
                };
            };
        };
        responses: {
            /** @description The reply, as GET /replies/{id} shows it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reply"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`reply_not_found`](http://localhost:3000/docs/errors/reply_not_found): Reply not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "reply_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    answerReply: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The reply's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body_html: string;
                    subject?: string;
                } | {
                    answer: {
                        body_html: string;
                        subject?: string;
                    };
                };
            };
        };
        responses: {
            /** @description The answer, queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplyAnswer"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`reply_not_found`](http://localhost:3000/docs/errors/reply_not_found): Reply not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "reply_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`mailbox_limit_reached`](http://localhost:3000/docs/errors/mailbox_limit_reached): The inbox has used today's daily_limit.
             *
             *     [`mailbox_unavailable`](http://localhost:3000/docs/errors/mailbox_unavailable): The inbox cannot send: it is disabled or its campaign is gone.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "mailbox_limit_reached" | "mailbox_unavailable";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    trackOpen: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed open token, optionally followed by `.gif`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pixel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": unknown;
                };
            };
        };
    };
    trackClick: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token from the link in the email. */
                token: string;
                /** @description The destination, as signed into the link. */
                url: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the destination. No body. */
            302: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description The signed destination URL. */
                    Location?: string;
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    /** @description no-referrer */
                    "Referrer-Policy"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An HTML page: the link is not valid (altered, incomplete, or no longer existing). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: too many requests from this client's network (TRACKING_RATE_LIMIT_PER_MINUTE per IP, IPv6 by /64, over all tracking routes). */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: the request could not be processed (the database could not be reached); try again. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    showUnsubscribePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token from the link in the email. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page: the confirmation form, or the address already unsubscribed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: the link is not valid (altered, incomplete, or no longer existing). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: too many requests from this client's network (TRACKING_RATE_LIMIT_PER_MINUTE per IP, IPv6 by /64, over all tracking routes). */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: the request could not be processed (the database could not be reached); try again. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    unsubscribeOneClick: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token from the link in the email. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page: unsubscribed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: the link is not valid (altered, incomplete, or no longer existing). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: too many requests from this client's network (TRACKING_RATE_LIMIT_PER_MINUTE per IP, IPv6 by /64, over all tracking routes). */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description An HTML page: the request could not be processed (the database could not be reached); try again. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description no-store, no-cache, must-revalidate, private */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    getApiUsage: {
        parameters: {
            query?: {
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requests, errors and average durations. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiUsage"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks, newest first, without their secrets. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    /**
                     * @default [
                     *       "*"
                     *     ]
                     */
                    event_filters?: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
                    description?: string | null;
                } | {
                    webhook: {
                        url: string;
                        /**
                         * @default [
                         *       "*"
                         *     ]
                         */
                        event_filters?: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
                        description?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description The webhook, with its secret. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`quota_exceeded`](http://localhost:3000/docs/errors/quota_exceeded): The account has reached one of its quotas; delete what it no longer needs, or move to a larger plan.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "quota_exceeded";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, without its secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    event_filters?: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
                    description?: string | null;
                    /** @constant */
                    disabled_at?: unknown;
                } | {
                    webhook: {
                        url?: string;
                        event_filters?: ("enrollment.sent" | "enrollment.opened" | "enrollment.replied" | "enrollment.bounced" | "enrollment.unsubscribed" | "credential.disabled" | "campaign.paused" | "enrollment.clicked" | "reply.categorized" | "credential.auth_failed" | "credential.paused" | "*")[];
                        description?: string | null;
                        /** @constant */
                        disabled_at?: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The webhook as changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description None, or `{}`. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedWebhookSecret"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "succeeded" | "failed" | "skipped" | null;
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Has-More": components["headers"]["X-Has-More"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id. */
                id: string;
                /** @description The delivery's id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found.
             *
             *     [`not_found`](http://localhost:3000/docs/errors/not_found): The requested resource does not exist.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found" | "not_found";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The webhook's id. */
                id: string;
                /** @description The delivery's id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        /** @description None, or `{}`. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The delivery, pending again. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /**
             * @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found.
             *
             *     [`not_found`](http://localhost:3000/docs/errors/not_found): The requested resource does not exist.
             */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found" | "not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /**
             * @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed.
             *
             *     [`unprocessable`](http://localhost:3000/docs/errors/unprocessable): The request cannot be processed.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed" | "unprocessable";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 printable ASCII characters, no spaces (a UUID is a good choice; anything else is 400 bad_request). The first answer to a key is stored for 24 hours (4xx validation answers included, 429 not) and replayed to a retry with the same body, with Idempotent-Replay: true; the same key with another body is 409 idempotency_conflict. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path: {
                /** @description The webhook's id. */
                id: string;
            };
            cookie?: never;
        };
        /** @description None, or `{}`. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The test delivery and what the receiver answered. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replay": components["headers"]["Idempotent-Replay"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description [`bad_request`](http://localhost:3000/docs/errors/bad_request): The request is malformed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "bad_request";
                    };
                };
            };
            /** @description [`unauthorized`](http://localhost:3000/docs/errors/unauthorized): A valid API key is required. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "unauthorized";
                    };
                };
            };
            /** @description [`account_suspended`](http://localhost:3000/docs/errors/account_suspended): This account is suspended: its API requests are refused and it sends no email. Contact the service's operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "account_suspended";
                    };
                };
            };
            /** @description [`webhook_not_found`](http://localhost:3000/docs/errors/webhook_not_found): Webhook not found. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "webhook_not_found";
                    };
                };
            };
            /** @description [`idempotency_conflict`](http://localhost:3000/docs/errors/idempotency_conflict): This Idempotency-Key was already used with a different request. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "idempotency_conflict";
                    };
                };
            };
            /** @description [`validation_failed`](http://localhost:3000/docs/errors/validation_failed): Validation failed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description [`rate_limited`](http://localhost:3000/docs/errors/rate_limited): Too many requests. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /**
             * @description [`service_unavailable`](http://localhost:3000/docs/errors/service_unavailable): The service is temporarily unavailable.
             *
             *     [`service_busy`](http://localhost:3000/docs/errors/service_busy): The service is busy with this resource right now; retry after the number of seconds in Retry-After.
             */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable" | "service_busy";
                    };
                };
            };
        };
    };
    event_enrollment_sent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.sent";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentEventData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_enrollment_opened: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.opened";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentEventData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_enrollment_replied: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.replied";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentEventData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_enrollment_bounced: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.bounced";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentEventData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_enrollment_unsubscribed: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.unsubscribed";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentUnsubscribedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_credential_disabled: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "credential.disabled";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["CredentialDisabledData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_campaign_paused: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "campaign.paused";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["CampaignPausedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_enrollment_clicked: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "enrollment.clicked";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["EnrollmentClickedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_reply_categorized: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "reply.categorized";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["ReplyCategorizedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_credential_auth_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "credential.auth_failed";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["CredentialAuthFailedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_credential_paused: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "credential.paused";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["CredentialPausedData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches. */
                "X-Service-Signature": string;
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    type: "webhook.test";
                    /** Format: date-time */
                    created_at: string;
                    /** Format: uuid */
                    account_id: string;
                    data: components["schemas"]["WebhookTestData"];
                };
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
