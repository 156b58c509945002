// A campaign from contacts to stats through the SDK.
// Run: OUTREACH_BASE_URL=http://localhost:3000 OUTREACH_API_KEY=ak_live_... SMTP_HOST=... SMTP_USER=... SMTP_PASSWORD=... node --import tsx examples/quick-start.ts
import { createClient, isApiError } from "@outreach/sdk";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
};

const outreach = createClient({ baseUrl: env("OUTREACH_BASE_URL"), apiKey: env("OUTREACH_API_KEY"), timeoutMs: 30_000 });

const { data: contactImport } = await outreach.POST("/contact_imports", {
  body: {
    name: "Launch list",
    contacts: [
      { email: "ada@example.com", first_name: "Ada", company: "Engines Ltd" },
      { email: "grace@example.com", first_name: "Grace" },
    ],
  },
});
console.log(`imported ${contactImport.imported_count} contacts (${contactImport.invalid_count} invalid)`);

const { data: campaign } = await outreach.POST("/campaigns", {
  body: {
    campaign: {
      name: "Launch",
      smtp_credentials: [
        { label: "Sales", from_email: env("SMTP_USER"), smtp_host: env("SMTP_HOST"), smtp_port: 587, smtp_username: env("SMTP_USER"), smtp_password: env("SMTP_PASSWORD"), daily_limit: 50 },
      ],
      sequence_steps: [
        { position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}}, a quick question about {{company}}.</p>", delay_minutes: 0 },
        { position: 2, subject: "Following up", body_html: "<p>Any thoughts, {{first_name}}?</p>", delay_minutes: 2880 },
      ],
    },
  },
});

await outreach.POST("/campaigns/{id}/enroll", { params: { path: { id: campaign.id } }, body: { contact_import_id: contactImport.id } });
try {
  await outreach.POST("/campaigns/{id}/dispatch", { params: { path: { id: campaign.id } }, body: {} });
} catch (err) {
  if (isApiError(err, "plan_limit_reached")) {
    console.error(`the plan's monthly sends are used up: ${JSON.stringify(err.details)}`);
    process.exit(1);
  }
  throw err;
}

const { data: stats } = await outreach.GET("/campaigns/{id}", { params: { path: { id: campaign.id } } });
console.log(`campaign ${campaign.id} is ${stats.status}: ${stats.totals.sent} sent, ${stats.totals.pending} pending`);

for await (const contact of outreach.paginate("/contacts", { params: { query: { limit: 100 } } })) {
  console.log(contact.email, contact.unsubscribed_at ? "(unsubscribed)" : "");
}
