import { randomUUID } from "node:crypto";
import { deleteAccountLeases, dropDeliveryHolds, extendAccountLeases, extendDeliveryHolds, holdDueDeliveries, leaseAccountsWithDueDeliveries } from "@outreach/db";
import type { Tx } from "../tx.js";
import { toDeliveryToAttempt, type DeliveryToAttempt, type SecretCache } from "./delivery-store.js";

/*
 * Pending deliveries are rows, and PostgreSQL is their queue. A deliverer
 * process leases an account (one holder per account at a time, for a short
 * while, renewed as it works), then claims the account's due deliveries in
 * batches and makes at most 10 requests at once for it. So the per-account
 * limit holds across replicas without counting in a shared store per request,
 * and an account whose receiver hangs holds only its own lease.
 */

/**
 * Leases up to `limit` accounts that have due deliveries and no live lease
 * (not `exclude`, which this process already serves), in one statement per
 * call: the accounts are found by skipping through the pending index one
 * account at a time, so a backlog of one account costs one probe, not a
 * scan. The skip starts at a random account id and wraps around, so when
 * there are more accounts waiting than room, each gets its turn.
 */
export async function leaseDueAccounts(tx: Tx, holder: string, ttlMs: number, limit: number, exclude: string[], now = new Date(), start = randomUUID()): Promise<string[]> {
  const leased = await leaseDueAccountsFrom(tx, holder, ttlMs, limit, exclude, now, start, null);
  if (leased.length >= limit) return leased;
  return [...leased, ...(await leaseDueAccountsFrom(tx, holder, ttlMs, limit - leased.length, [...exclude, ...leased], now, FIRST_UUID, start))];
}

const FIRST_UUID = "00000000-0000-0000-0000-000000000000";

/** leaseDueAccounts over the account ids from `from` (inclusive) to `before` (exclusive; null: to the end). */
async function leaseDueAccountsFrom(tx: Tx, holder: string, ttlMs: number, limit: number, exclude: string[], now: Date, from: string, before: string | null): Promise<string[]> {
  return leaseAccountsWithDueDeliveries(tx, { holder, until: new Date(now.getTime() + ttlMs), limit, exclude, from, before }, now);
}

/**
 * Extends this holder's leases and the hold on the deliveries it has claimed
 * and not yet recorded; answers the accounts whose lease it still holds (one
 * missing was taken over after it expired: stop claiming for it).
 */
export async function renewAccountLeases(tx: Tx, holder: string, accountIds: string[], heldDeliveryIds: string[], ttlMs: number, now = new Date()): Promise<string[]> {
  const until = new Date(now.getTime() + ttlMs);
  if (heldDeliveryIds.length > 0) {
    // a row locked now is being recorded (its hold ends with that): skipped, never waited for, so this cannot deadlock with a record
    await extendDeliveryHolds(tx, heldDeliveryIds, until);
  }
  if (accountIds.length === 0) return [];
  return extendAccountLeases(tx, holder, accountIds, until);
}

export async function releaseAccountLeases(tx: Tx, holder: string, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await deleteAccountLeases(tx, holder, accountIds);
}

/**
 * Claims up to `limit` of an account's due deliveries, oldest due first, in
 * one statement with everything an attempt needs (the webhook's URL and
 * secrets, the event's data): each is held against other workers until
 * `holdMs` from now (renewed while it waits or runs).
 */
export async function claimDueDeliveries(tx: Tx, accountId: string, limit: number, holdMs: number, secrets: SecretCache, now = new Date()): Promise<DeliveryToAttempt[]> {
  const rows = await holdDueDeliveries(tx, accountId, limit, new Date(now.getTime() + holdMs), now);
  return rows.map((row) => toDeliveryToAttempt(row, secrets, now));
}

/** Gives claimed deliveries that were not attempted back at once (instead of when their hold lapses). */
export async function releaseDeliveryHolds(tx: Tx, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await dropDeliveryHolds(tx, deliveryIds);
}
