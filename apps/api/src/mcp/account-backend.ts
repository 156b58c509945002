import { AppError, errorEnvelope, sha256Hex, ignoreFailure } from "@outreach/core";
import { campaignIdOfStatsUri, campaignStatsUri, type McpBackend, type ToolOutcome } from "@outreach/mcp";
import type { AuthContext } from "../auth.js";
import type { ApiContext } from "../context.js";
import { claimIdempotencyKey } from "../idempotency-claims.js";
import { appErrorOf } from "../middleware/error-handler.js";
import { serializeCampaignStats } from "../serializers/campaign.js";
import { getCampaign } from "../services/get-campaign.js";
import { listCampaigns } from "../services/list-campaigns.js";
import { splitArguments } from "./tool-arguments.js";
import type { RegisteredTool } from "./tool-registry.js";

/** JSON with object keys sorted at every level: the same arguments give the same text whatever their order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Plain JSON, as structuredContent must be (dates become their ISO text). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

const RESOURCES_PER_PAGE = 100;

export interface AccountBackendOptions {
  tools: Map<string, RegisteredTool>;
  /** the request's Idempotency-Key header, which every tool call that changes something then claims */
  idempotencyKey?: string;
  /** each tool call's outcome, for the request log */
  onToolCall?: (name: string, outcome: ToolOutcome) => void;
}

/**
 * The MCP server's view of one account (the API key's): tool calls run the
 * handlers with the caller's account, so every id is scoped as in REST (another
 * account's campaign is campaign_not_found, like a missing one).
 *
 * A tool that sends changes nothing without confirm: true (it answers its
 * preview). With it, and for every other tool that changes something when the
 * request carries an Idempotency-Key, the call claims an idempotency key, so a
 * retried call answers the first result and never acts twice. The key is the
 * tool's idempotency_key argument, else the header, else (for a tool that
 * sends) one derived from the tool and its arguments. Only successes are kept:
 * a call that failed changed nothing and may be retried as it is.
 */
export function accountBackend(ctx: ApiContext, auth: AuthContext, options: AccountBackendOptions): McpBackend {
  const envelopeOf = (err: unknown) => ({ error: errorEnvelope(appErrorOf(err, ctx.logger), ctx.config.docsUrl) });

  async function run(tool: RegisteredTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    const { definition, handler } = tool;
    const { call, confirm, idempotencyKey } = splitArguments(tool, args);
    const fullCall = { ctx, auth, ...call };
    if (definition.confirm && !confirm) {
      const preview = asJson(await handler.preview!(fullCall));
      return { ok: preview, summary: typeof preview.summary === "string" ? preview.summary : undefined };
    }
    const work = async () => asJson({ ...(definition.confirm ? { preview: false } : {}), ...((await handler.act(fullCall)) as object) });
    const request = canonicalJson({ tool: definition.name, arguments: { ...args, confirm: undefined, idempotency_key: undefined } });
    const key = definition.annotations.readOnlyHint ? undefined : (idempotencyKey ?? options.idempotencyKey ?? (definition.confirm ? `mcp:${sha256Hex(request)}` : undefined));
    if (key === undefined) return { ok: await work() };

    const claim = await claimIdempotencyKey(ctx, { accountId: auth.accountId, key, method: "MCP", path: `tools/${definition.name}`, requestHash: sha256Hex(request) });
    if (claim.kind === "replay") return { ok: JSON.parse(claim.body) as Record<string, unknown>, summary: "Replayed: this call was already made; this is its first result." };
    try {
      const ok = await work();
      await claim.release({ status: 200, headers: {}, body: JSON.stringify(ok) });
      return { ok };
    } catch (err) {
      await claim
        .release(null)
        .catch(ignoreFailure(ctx.logger, "releasing an idempotency claim after a failed tool call", "the claim expires by itself, and the call's own error is what the client gets"));
      throw err;
    }
  }

  return {
    async callTool(name, args) {
      let outcome: ToolOutcome;
      const tool = options.tools.get(name);
      try {
        if (!tool) throw new AppError("not_found", `There is no tool named ${JSON.stringify(name)}; tools/list lists them.`);
        outcome = await run(tool, args);
      } catch (err) {
        outcome = envelopeOf(err);
      }
      options.onToolCall?.(name, outcome);
      return outcome;
    },

    async listResources(cursor) {
      const rows = await listCampaigns(ctx.db, auth.accountId, { limit: RESOURCES_PER_PAGE, startingAfter: cursor }).catch((err: unknown) => {
        // an unknown cursor is the client's mistake: an empty list rather than a failure
        if (err instanceof AppError && err.code === "validation_failed") return [];
        throw err;
      });
      const page = rows.slice(0, RESOURCES_PER_PAGE);
      return {
        resources: page.map((campaign) => ({
          uri: campaignStatsUri(campaign.id),
          name: `campaign_stats_${campaign.id}`,
          title: `Stats of ${campaign.name}`,
          description: `Status and counts of the campaign "${campaign.name}" (${campaign.status}).`,
          mimeType: "application/json",
        })),
        ...(rows.length > RESOURCES_PER_PAGE ? { nextCursor: page[page.length - 1]!.id } : {}),
      };
    },

    async readResource(uri) {
      const campaignId = campaignIdOfStatsUri(uri);
      if (campaignId === null) return null;
      try {
        const { campaign, stats } = await getCampaign(ctx.db, auth.accountId, campaignId);
        return { campaign_id: campaign.id, name: campaign.name, status: campaign.status, stats: serializeCampaignStats(stats) };
      } catch (err) {
        if (err instanceof AppError && err.code === "campaign_not_found") return null;
        throw err;
      }
    },
  };
}
