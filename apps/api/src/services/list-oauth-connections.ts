import { AppError } from "@outreach/core";
import { countOAuthConnectionCredentials, type Db, type OAuthConnection } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import { isUuid } from "../validation.js";

export type OAuthConnectionWithUsage = OAuthConnection & { credentialsCount: number };

async function withUsage(db: Db, connections: OAuthConnection[]): Promise<OAuthConnectionWithUsage[]> {
  const counts = await countOAuthConnectionCredentials(
    db,
    connections.map((c) => c.id),
  );
  return connections.map((c) => ({ ...c, credentialsCount: counts.get(c.id) ?? 0 }));
}

/** The account's OAuth2 mailbox connections, newest first, a page at a time, with how many credentials use each. */
export async function listOAuthConnections(db: Db, accountId: string, input: PageInput): Promise<OAuthConnectionWithUsage[]> {
  const cursor = await resolveCursor(input.startingAfter, "OAuth connection", (id) => db.oAuthConnection.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  const rows = await db.oAuthConnection.findMany({ where: { accountId, ...(cursor && after(cursor)) }, orderBy: newestFirst, take: rowsForPage(input.limit) });
  return withUsage(db, rows);
}

/** One of the account's connections: 404 oauth_connection_not_found for a malformed, unknown or another account's id. */
export async function getOAuthConnection(db: Db, accountId: string, id: string): Promise<OAuthConnectionWithUsage> {
  const row = isUuid(id) ? await db.oAuthConnection.findFirst({ where: { id, accountId } }) : null;
  if (!row) throw new AppError("oauth_connection_not_found");
  return (await withUsage(db, [row]))[0]!;
}
