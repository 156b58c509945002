import { randomBytes } from "node:crypto";
import { deleteStagedRowsBefore, deleteStagedRowsOf, insertStagedContactRows, type Db } from "@outreach/db";
import type { RowSink } from "../import-body-parser.js";
import { ContactRowValidator } from "./parse-contact-rows.js";

/** Rows per bulk statement: large enough to amortise round trips, small enough to keep statements cheap to plan and buffer. */
export const CHUNK = 5000;
/**
 * Text per staging statement. Prisma's debug module keeps the arguments of its last
 * 100 debug calls (even with DEBUG off), so each statement's rows stay reachable for
 * a while after it ran: chunks are kept small in bytes, not only in rows.
 */
const CHUNK_CHARS = 1024 * 1024;
/** An upload whose staged rows are older than this was abandoned (its process died mid-request). */
const ABANDONED_AFTER_MS = 3600_000;

/** A UUIDv7: its first 48 bits are the time in ms, so uploads sort by when they began. */
function uploadIdAt(ms: number, random = randomBytes(10)): string {
  const hex = ms.toString(16).padStart(12, "0") + "7" + random.toString("hex").slice(1, 4) + ((random[2]! & 0x3f) | 0x80).toString(16) + random.toString("hex").slice(6, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The rows of one `contacts` array of an import body, as they stream in: each is
 * validated, and the valid ones are written in chunks to contact_import_staged_rows
 * (UNLOGGED: packages/db/sql/tables/contact_import_staged_rows.sql) under this upload's id (merged into contacts only once the whole body is known
 * to be good). Past `maxRows` rows are only counted: the request will be refused.
 */
export class StagedContactRows implements RowSink {
  readonly uploadId = uploadIdAt(Date.now());
  readonly validator = new ContactRowValidator();
  length = 0;
  private emails: string[] = [];
  private ords: number[] = [];
  private firstNames: Array<string | null> = [];
  private lastNames: Array<string | null> = [];
  private companies: Array<string | null> = [];
  private timezones: Array<string | null> = [];
  /** custom_fields as JSON text */
  private customFields: Array<string | null> = [];
  private chars = 0;

  constructor(private readonly maxRows: number) {}

  add(raw: unknown): void {
    const ord = this.length++;
    if (this.length > this.maxRows) return;
    const row = this.validator.check(raw);
    if (!row) return;
    this.emails.push(row.email);
    this.ords.push(ord);
    this.firstNames.push(row.firstName);
    this.lastNames.push(row.lastName);
    this.companies.push(row.company);
    this.timezones.push(row.timezone);
    const customFields = row.customFields ? JSON.stringify(row.customFields) : null;
    this.customFields.push(customFields);
    this.chars += row.email.length + (row.firstName?.length ?? 0) + (row.lastName?.length ?? 0) + (row.company?.length ?? 0) + (row.timezone?.length ?? 0) + (customFields?.length ?? 0);
  }

  /** Writes the rows held so far, once a chunk is full (CHUNK rows or CHUNK_CHARS of text), or whatever is left with `all`. */
  async flush(db: Db, all = false): Promise<void> {
    if (this.emails.length === 0 || (!all && this.emails.length < CHUNK && this.chars < CHUNK_CHARS)) return;
    const columns = {
      emails: this.emails,
      ords: this.ords,
      firstNames: this.firstNames,
      lastNames: this.lastNames,
      companies: this.companies,
      timezones: this.timezones,
      customFields: this.customFields,
    };
    this.emails = [];
    this.ords = [];
    this.firstNames = [];
    this.lastNames = [];
    this.companies = [];
    this.timezones = [];
    this.customFields = [];
    this.chars = 0;
    await insertStagedContactRows(db, this.uploadId, columns);
  }
}

/** Deletes the staged rows of these uploads (done with, or refused). */
export async function discardStagedRows(db: Db, uploads: readonly StagedContactRows[]): Promise<void> {
  if (uploads.length === 0) return;
  await deleteStagedRowsOf(
    db,
    uploads.map((u) => u.uploadId),
  );
}

/** Deletes rows left by uploads that began over an hour ago (a range of the primary key: upload ids sort by time). */
export async function purgeAbandonedStagedRows(db: Db): Promise<void> {
  const before = uploadIdAt(Date.now() - ABANDONED_AFTER_MS, Buffer.alloc(10));
  await deleteStagedRowsBefore(db, before);
}
