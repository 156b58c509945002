import type { ClientKind, Db, Prisma } from "@outreach/db";
import { generateApiKeyToken } from "../api-key-token.js";

type Tx = Db | Prisma.TransactionClient;

/** Creates a key for an account; the plaintext exists only in the returned value. */
export async function issueApiKey(db: Tx, accountId: string, label: string, clientKind: ClientKind) {
  const token = generateApiKeyToken();
  const key = await db.apiKey.create({ data: { accountId, label, clientKind, prefix: token.prefix, tokenHash: token.hash } });
  return { key, plaintext: token.plaintext };
}
