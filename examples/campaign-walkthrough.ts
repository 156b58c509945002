// A whole campaign through the SDK, against a local `npm start`:
// sign up, a signed webhook receiver, an import, a campaign whose inbox is the
// loopback SMTP catcher, a preview, enrollment, dispatch, statistics, and the
// enrollment.sent events verified as they arrive. See examples/README.md.
//   OUTREACH_BASE_URL=http://localhost:3000 pnpm --filter @outreach/examples walkthrough
import { createClient, isApiError } from "@outreach/sdk";
import { isMain } from "./is-main.js";
import { startWebhookReceiver } from "./webhook-receiver.js";

export interface WalkthroughOptions {
  baseUrl: string;
  /** an API key to use; without one the walkthrough signs up a new account */
  apiKey?: string;
  /** where the campaign's inbox sends: the SMTP catcher */
  smtpHost: string;
  smtpPort: number;
  /** the port of the webhook receiver this walkthrough starts (0: any free port) */
  receiverPort: number;
  /** how long to wait for the emails and events */
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface WalkthroughResult {
  accountKey: string;
  campaignId: string;
  sent: number;
  /** enrollment.sent events received with a valid signature */
  verifiedEvents: number;
}

const CONTACTS = [
  { email: "ada@lovelace.example", first_name: "Ada", company: "Analytical Engines" },
  { email: "grace@hopper.example", first_name: "Grace", company: "Compilers Inc" },
  { email: "alan@turing.example", company: "Bletchley" },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runWalkthrough(options: WalkthroughOptions): Promise<WalkthroughResult> {
  const log = options.log ?? console.log;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);

  // 1. an account and its key (POST /signup takes no key)
  let apiKey = options.apiKey;
  if (!apiKey) {
    const { data } = await createClient({ baseUrl: options.baseUrl }).POST("/signup", { body: { email: `walkthrough-${Date.now()}@example.com`, name: "Walkthrough" } });
    log(`signed up account ${data.account_id} on the ${data.plan_slug} plan`);
    // a key of its own for this program: keys the SDK creates are client_kind "sdk", so GET /usage tells its requests apart
    const { data: key } = await createClient({ baseUrl: options.baseUrl, apiKey: data.api_key.plaintext }).POST("/api_keys", { body: { label: "walkthrough" } });
    apiKey = key.plaintext;
    log(`created API key ${key.prefix}… (client_kind ${key.client_kind})`);
  }
  const client = createClient({ baseUrl: options.baseUrl, apiKey });

  // 2. a receiver for signed events, and the webhook that points at it
  let secrets: string[] = [];
  let verifiedEvents = 0;
  const receiver = await startWebhookReceiver({
    port: options.receiverPort,
    secrets: () => secrets,
    onEvent: (event) => {
      if (event.type === "enrollment.sent") verifiedEvents += 1;
      log(`webhook: ${event.type} (signature verified)`);
    },
    onRefused: (reason) => log(`webhook refused: ${reason}`),
  });
  try {
    const { data: webhook } = await client.POST("/webhooks", { body: { url: receiver.url, event_filters: ["*"], description: "walkthrough receiver" } });
    secrets = [webhook.secret];
    log(`webhook ${webhook.id} -> ${receiver.url}`);

    // 3. contacts arrive through an import
    const { data: imported } = await client.POST("/contact_imports", { body: { name: "Walkthrough leads", contacts: CONTACTS } });
    log(`imported ${imported.imported_count} contacts (${imported.invalid_count} invalid)`);

    // 4. a campaign: one step with a fallback for missing first names, one inbox (the catcher)
    const { data: campaign } = await client.POST("/campaigns", {
      body: {
        name: "Walkthrough",
        min_wait_seconds: 0,
        max_wait_seconds: 1,
        sequence_steps: [{ position: 1, subject: 'Hello {{first_name | "there"}}', body_html: '<p>Hi {{first_name | "there"}}, a question about {{company}}.</p>', delay_minutes: 0 }],
        smtp_credentials: [
          {
            label: "catcher",
            from_email: "sales@walkthrough.example",
            from_name: "Walkthrough Sales",
            smtp_host: options.smtpHost,
            smtp_port: options.smtpPort,
            smtp_secure: false,
            smtp_username: "walkthrough",
            smtp_password: "walkthrough",
            daily_limit: 50,
          },
        ],
      },
    });
    log(`campaign ${campaign.id} created (${campaign.status})`);

    // 5. what the first contact will receive
    const contacts = [];
    for await (const contact of client.paginate("/contacts", { params: { query: { limit: 2 } } })) contacts.push(contact);
    const first = contacts.find((contact) => contact.email === CONTACTS[0]!.email)!;
    const { data: preview } = await client.GET("/campaigns/{id}/preview", { params: { path: { id: campaign.id }, query: { contact_id: first.id } } });
    log(`preview for ${first.email}: "${preview.subject}"`);

    // 6. enroll the import and send (Idempotency-Key is added by the SDK, so a retried call never sends twice)
    const { data: enrolled } = await client.POST("/campaigns/{id}/enroll", { params: { path: { id: campaign.id } }, body: { contact_import_id: imported.id } });
    log(`enrolled ${enrolled.enrolled} contacts`);
    const { data: dispatched } = await client.POST("/campaigns/{id}/dispatch", { params: { path: { id: campaign.id } }, body: {} });
    log(`dispatched batch ${dispatched.batch_number}: ${dispatched.pending} pending, queued ${dispatched.queued}`);

    // 7. statistics until every email is out, then the events
    let sent = 0;
    while (Date.now() < deadline) {
      const { data: stats } = await client.GET("/campaigns/{id}", { params: { path: { id: campaign.id } } });
      sent = stats.totals.sent;
      if (sent >= CONTACTS.length) break;
      await sleep(500);
    }
    log(`sent ${sent} of ${CONTACTS.length} (see them at the SMTP catcher)`);
    while (verifiedEvents < sent && Date.now() < deadline) await sleep(250);
    const { data: usage } = await client.GET("/usage");
    const byKind = usage.by_client_kind.map((kind) => `${kind.client_kind} ${kind.requests}`).join(", ");
    log(`requests this period by client kind: ${byKind}`);
    return { accountKey: apiKey, campaignId: campaign.id, sent, verifiedEvents };
  } finally {
    await receiver.close();
  }
}

if (isMain(import.meta.url)) {
  try {
    const result = await runWalkthrough({
      baseUrl: process.env.OUTREACH_BASE_URL ?? "http://localhost:3000",
      apiKey: process.env.OUTREACH_API_KEY,
      smtpHost: process.env.SMTP_HOST ?? "127.0.0.1",
      smtpPort: Number(process.env.SMTP_PORT ?? 2525),
      receiverPort: Number(process.env.RECEIVER_PORT ?? 4000),
    });
    console.log(`done: ${result.sent} emails sent, ${result.verifiedEvents} enrollment.sent events verified. API key: ${result.accountKey}`);
    process.exit(result.sent === CONTACTS.length && result.verifiedEvents >= result.sent ? 0 : 1);
  } catch (error) {
    if (isApiError(error)) console.error(`the API answered ${error.status} ${error.code}: ${error.message}`);
    else console.error(error);
    process.exit(1);
  }
}
