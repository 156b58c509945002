import { lockScheduledStepsOf, moveScheduledSend, setEnrollmentResumeAt, type EnrollmentStopSettings } from "@outreach/db";
import { DateTime } from "luxon";
import { localDay, nextOpening, openingFromDay, parseSchedule, scheduleZone } from "../sending/send-window.js";
import type { Tx } from "../tx.js";
import { findReturnDate } from "./return-date.js";

const DAY_MS = 86_400_000;

export interface OutOfOfficeWait {
  /** when the enrollment's next step now goes out (null: nothing was left to move) */
  resumeAt: Date | null;
  /** the return date read in the message ("YYYY-MM-DD"), null when it named none */
  returnDay: string | null;
}

/**
 * When someone away is mailed again: the opening of the sending window on
 * their return date plus the campaign's days after return (in the zone the
 * contact's sends keep to), or, when the message names no return date, the
 * campaign's default delay from when it arrived.
 */
export function resumeTimeFor(
  settings: Pick<EnrollmentStopSettings, "schedule" | "contactTimezone" | "oooDaysAfterReturn" | "oooDefaultDelayDays">,
  message: { subject: string; text: string; receivedAt: Date },
): {
  resumeAt: Date;
  returnDay: string | null;
} {
  const schedule = parseSchedule(settings.schedule);
  const zone = scheduleZone(schedule, settings.contactTimezone);
  const found = findReturnDate({ subject: message.subject, text: message.text }, message.receivedAt);
  if (!found) return { resumeAt: nextOpening(schedule, zone, new Date(message.receivedAt.getTime() + settings.oooDefaultDelayDays * DAY_MS)), returnDay: null };
  const returnDay = DateTime.fromObject(found, { zone: "UTC" }).toISODate()!;
  const day = DateTime.fromISO(returnDay, { zone: "UTC" }).plus({ days: settings.oooDaysAfterReturn }).toISODate()!;
  // a return date already past (read late, or a stale notice) resumes no earlier than today's window
  const today = localDay(zone, message.receivedAt);
  return { resumeAt: openingFromDay(schedule, zone, day < today ? today : day, message.receivedAt), returnDay };
}

/**
 * An out-of-office from an enrollment's contact: its next step that has not
 * been released yet moves to the contact's return (resumeTimeFor), and the
 * later ones by as much, so the sequence keeps its spacing; enrollments.resumeAt
 * records it (GET enrollment, send_forecast). A step already due later than
 * that stays where it is. Nothing moves for an enrollment that is no longer
 * active.
 */
export async function waitForReturn(tx: Tx, enrollmentId: string, settings: EnrollmentStopSettings, message: { subject: string; text: string; receivedAt: Date }): Promise<OutOfOfficeWait> {
  if (!["pending", "sent", "opened"].includes(settings.status)) return { resumeAt: null, returnDay: null };
  const { resumeAt, returnDay } = resumeTimeFor(settings, message);
  const steps = await lockScheduledStepsOf(tx, enrollmentId);
  const next = steps[0];
  if (!next || next.dueAt >= resumeAt) return { resumeAt: null, returnDay };
  const shift = resumeAt.getTime() - next.dueAt.getTime();
  for (const step of steps) await moveScheduledSend(tx, step.id, new Date(step.dueAt.getTime() + shift));
  await setEnrollmentResumeAt(tx, enrollmentId, resumeAt);
  return { resumeAt, returnDay };
}
