import { randomUUID } from "node:crypto";
import { ERROR_CODES } from "@outreach/core";
import { callJson, send } from "./http.js";

/** What a path parameter (or an id in a query) can name. */
export type FixtureKind =
  | "campaign"
  | "smtpCredential"
  | "contact"
  | "contactImport"
  | "outreach"
  | "webhook"
  | "webhookDelivery"
  | "blocklistEntry"
  | "apiKey"
  | "reply"
  | "openToken"
  | "clickToken"
  | "clickUrl"
  | "unsubscribeToken"
  | "errorCode"
  | "docsAsset";

/** Kinds a DELETE may remove: it gets a throwaway one made for it, never one the run keeps using. */
const THROWAWAY_KINDS = new Set<FixtureKind>(["campaign", "outreach", "webhook", "blocklistEntry", "apiKey"]);

/** A link of the campaign's steps, so a click token for it redirects. */
export const FIXTURE_LINK = "https://example.com/landing";

export interface FixtureOptions {
  baseUrl: string;
  /** the fuzz account's key: the run never revokes it */
  token: string;
  /** a URL webhooks may be created with (a loopback receiver when the API allows private URLs) */
  webhookUrl: string;
}

let counter = 0;
const unique = (tag: string) => `${tag}-${++counter}-${randomUUID().slice(0, 8)}`;

function credential() {
  return {
    label: "Fuzz inbox",
    from_email: "fuzz-sender@example.com",
    smtp_host: "smtp.example.com",
    smtp_port: 587,
    smtp_username: "fuzz-sender@example.com",
    smtp_password: "fuzz-smtp-password",
    daily_limit: 50,
  };
}

function steps() {
  return [
    { position: 1, subject: "Hello {{first_name}}", body_html: `<p>Hello {{first_name}}, see <a href="${FIXTURE_LINK}">this</a>.</p>`, delay_minutes: 0 },
    { position: 2, subject: "Following up", body_html: "<p>Any thoughts?</p>", delay_minutes: 1440 },
  ];
}

/**
 * The resources of the fuzz account whose ids the run puts in paths: made
 * through the API itself, so they work against any running instance. A kind
 * that a DELETE removes is given a throwaway instance per request; a kept one
 * that disappears anyway is made again.
 */
export class FuzzFixtures {
  private readonly values = new Map<FixtureKind, string[]>();

  constructor(private readonly options: FixtureOptions) {}

  /** Makes one of everything (and the values that are not ids: error codes, asset names). */
  async setUp(): Promise<void> {
    this.set("errorCode", Object.keys(ERROR_CODES));
    this.set("docsAsset", await this.docsAssets());
    await this.makeOutreach();
    await this.makeCampaign();
    await this.makeContacts();
    await this.makeWebhook();
    await this.makeBlocklistEntry();
    // a second key of the account, for starting_after of GET /api_keys (a DELETE always gets a throwaway key)
    this.add("apiKey", [(await this.call("POST", "/api_keys", { label: unique("fuzz kept key") })).id]);
  }

  /** Adds values made another way (replies and tracking tokens, written by the in-process set-up). */
  add(kind: FixtureKind, values: string[]): void {
    this.set(kind, [...(this.values.get(kind) ?? []), ...values]);
  }

  /** The kept values of a kind (empty when the run has none). */
  of(kind: FixtureKind): string[] {
    return this.values.get(kind) ?? [];
  }

  /** A value of the kind for a request: `pick` chooses among the kept ones; a DELETE gets a throwaway one. */
  async value(kind: FixtureKind, pick: number, destructive: boolean): Promise<string | undefined> {
    if (destructive && THROWAWAY_KINDS.has(kind)) return this.throwaway(kind).catch(() => undefined);
    const values = this.of(kind);
    return values.length ? values[pick % values.length] : undefined;
  }

  /** After an answer: a kept value that a request removed is made again. */
  async afterAnswer(method: string, values: string[], status: number): Promise<void> {
    if (method !== "DELETE" || status >= 300) return;
    for (const [kind, kept] of this.values) {
      if (!values.some((value) => kept.includes(value))) continue;
      this.set(
        kind,
        kept.filter((value) => !values.includes(value)),
      );
      if (kind === "campaign") await this.makeCampaign();
      if (kind === "outreach") await this.makeOutreach();
      if (kind === "webhook") await this.makeWebhook();
      if (kind === "blocklistEntry") await this.makeBlocklistEntry();
    }
  }

  private set(kind: FixtureKind, values: string[]): void {
    this.values.set(kind, values);
  }

  private call(method: string, path: string, body?: unknown, expected?: number[]): Promise<any> {
    return callJson(this.options.baseUrl, method, path, this.options.token, body, expected);
  }

  private async docsAssets(): Promise<string[]> {
    const page = await send(this.options.baseUrl, { method: "GET", path: "/docs", headers: {} });
    return [...new Set([...page.text.matchAll(/docs\/assets\/([^"'?#\s)/]+)/g)].map((match) => decodeURIComponent(match[1]!)))];
  }

  private async makeOutreach(): Promise<void> {
    const outreach = await this.call("POST", "/outreaches", { name: unique("fuzz outreach") });
    this.add("outreach", [outreach.id]);
  }

  private async makeCampaign(): Promise<void> {
    const campaign = await this.call("POST", "/campaigns", {
      campaign: { name: unique("fuzz campaign"), outreach_id: this.of("outreach")[0] ?? null, track_clicks: true, smtp_credentials: [credential()], sequence_steps: steps() },
    });
    this.add("campaign", [campaign.id]);
    this.add(
      "smtpCredential",
      campaign.smtp_credentials.map((c: { id: string }) => c.id),
    );
  }

  private async makeContacts(): Promise<void> {
    const tag = randomUUID().slice(0, 8);
    const contacts = [1, 2, 3].map((i) => ({ email: `fuzz-${tag}-${i}@example.com`, first_name: `Fuzz${i}`, company: "Example" }));
    const imported = await this.call("POST", "/contact_imports", { name: "fuzz contacts", contacts });
    this.add("contactImport", [imported.id]);
    const listed = await this.call("GET", `/contacts?limit=3`);
    this.add(
      "contact",
      listed.map((c: { id: string }) => c.id),
    );
    // pending enrollments, so dispatch, preview and the forecast have something to act on
    await this.call("POST", `/campaigns/${this.of("campaign")[0]}/enroll`, { contact_import_id: imported.id });
  }

  private async makeWebhook(): Promise<void> {
    const webhook = await this.call("POST", "/webhooks", { url: this.options.webhookUrl });
    this.add("webhook", [webhook.id]);
    const ping = await this.call("POST", `/webhooks/${webhook.id}/test`, {});
    this.add("webhookDelivery", [ping.delivery.id]);
  }

  private async makeBlocklistEntry(): Promise<void> {
    const email = `${unique("fuzz-blocked")}@example.com`;
    await this.call("POST", "/blocklist", { emails: [email] });
    const [entry] = await this.call("GET", `/blocklist?value=${encodeURIComponent(email)}`);
    this.add("blocklistEntry", [entry.id]);
  }

  /** A new instance, made for one request that may remove it. */
  private async throwaway(kind: FixtureKind): Promise<string | undefined> {
    switch (kind) {
      case "campaign":
        return (await this.call("POST", "/campaigns", { name: unique("fuzz throwaway"), smtp_credentials: [credential()], sequence_steps: steps().slice(0, 1) })).id;
      case "outreach":
        return (await this.call("POST", "/outreaches", { name: unique("fuzz throwaway") })).id;
      case "webhook":
        return (await this.call("POST", "/webhooks", { url: this.options.webhookUrl, description: "fuzz throwaway" })).id;
      case "blocklistEntry": {
        const email = `${unique("fuzz-throwaway")}@example.com`;
        await this.call("POST", "/blocklist", { emails: [email] });
        return (await this.call("GET", `/blocklist?value=${encodeURIComponent(email)}`))[0]?.id;
      }
      case "apiKey":
        // another key of the account: revoking it is harmless, and the run's own key is never offered
        return (await this.call("POST", "/api_keys", { label: unique("fuzz throwaway") })).id;
      default:
        return undefined;
    }
  }
}
