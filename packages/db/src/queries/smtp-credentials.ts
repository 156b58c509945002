import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on smtp_credentials (inboxes) that the dispatcher runs: the moves of a disabled inbox's held sends. */

export const heldSendsMoveColumns = columns({ disabledAt: "timestamptz?", heldSendsMoveRequestedAt: "timestamptz?" });
export type HeldSendsMoveState = RowOf<typeof heldSendsMoveColumns>;

/** Whether the inbox is disabled and when a move of its held sends was asked for: undefined when it is gone. */
export async function heldSendsMoveState(q: Queryable, credentialId: string): Promise<HeldSendsMoveState | undefined> {
  const [row] = await executor(q).rows<HeldSendsMoveState>(`SELECT "disabledAt", "heldSendsMoveRequestedAt" FROM smtp_credentials WHERE id = $1::uuid`, [credentialId]);
  return row;
}

/** The move of the inbox's held sends is done (or no longer wanted). */
export async function clearHeldSendsMove(q: Queryable, credentialId: string): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "heldSendsMoveRequestedAt" = NULL WHERE id = $1::uuid`, [credentialId]);
}

export const requestedHeldSendsMoveColumns = columns({ id: "uuid", accountId: "uuid", campaignId: "uuid", requestedAt: "timestamptz!" });
export type RequestedHeldSendsMove = RowOf<typeof requestedHeldSendsMoveColumns>;

/** Inboxes with a move of their held sends asked for (at most 1,000): what the dispatcher's sweep adds jobs for. */
export async function inboxesWithHeldSendsMove(q: Queryable): Promise<RequestedHeldSendsMove[]> {
  return executor(q).rows<RequestedHeldSendsMove>(`
      SELECT id, "accountId", "campaignId", "heldSendsMoveRequestedAt" AS "requestedAt" FROM smtp_credentials WHERE "heldSendsMoveRequestedAt" IS NOT NULL LIMIT 1000`);
}
