import type { MailProvider, RecipientProvider } from "../audience/mail-provider.js";
import { dailyLimitOn, type Ramp } from "./daily-limit.js";
import { dayAfter, nextOpening, openingFromDay, scheduleZone, sendDay, type SendSchedule } from "./send-window.js";

/**
 * The pure part of dispatch: which credential sends each enrollment's step 1 and
 * when. Jitter scope "batch" (the default): consecutive step-1 sends of the
 * batch are spaced by a random wait in [minWait, maxWait] seconds whatever the
 * number of inboxes, each going to the inbox with room that day that sent
 * least recently; "inbox": every credential is its own stream spaced by the
 * wait, and a send goes to the credential that can send soonest. A send that
 * falls outside the campaign's window moves to the next opening (in the
 * contact's zone with use_contact_timezone; one jitter stream per zone). No
 * mailbox books more step-1 sends on a day (of the send's zone) than the
 * credential's limit that day (daily_limit, lowered by a ramp); what does not
 * fit goes to the next day's window. Later steps follow step 1 at the
 * cumulative delay (moved into the window) and do not count against the limit.
 * With recipient providers (match_recipient_provider), a recipient on Google
 * (Microsoft) goes to an inbox of that provider when one has room on the day
 * the send falls on, taking turns among them; otherwise to any inbox as above.
 */
export interface CredentialStream {
  id: string;
  dailyLimit: number;
  /** step-1 sends already booked per day ("YYYY-MM-DD") on this credential's mailbox */
  booked: Map<string, number>;
  /** the last step-1 send already scheduled on this credential, if any */
  lastDueAt: Date | null;
  /** credentials with the same key (same mailbox) share their bookings; the id when absent */
  mailbox?: string;
  ramp?: Ramp | null;
  /** the last step-1 send per zone, when known (carried between chunks); else lastDueAt stands for every zone */
  lastByZone?: Map<string, Date>;
  /** the inbox's mail provider (for recipient provider matching); other when absent */
  provider?: MailProvider;
}

export type JitterScope = "batch" | "inbox";

/** A campaign's daily_limit: step-1 sends per day ("YYYY-MM-DD", as a mailbox's day) across all its inboxes. */
export interface CampaignCap {
  dailyLimit: number;
  /** step-1 sends already booked per day by the campaign (every inbox) */
  booked: Map<string, number>;
}

export interface PlanInput {
  now: Date;
  minWaitSeconds: number;
  maxWaitSeconds: number;
  /** delay_minutes of steps 1..n (step 1 is 0) */
  stepDelaysMinutes: number[];
  credentials: CredentialStream[];
  enrollmentIds: string[];
  random?: () => number;
  /** the sending window; null or absent: any time */
  schedule?: SendSchedule | null;
  jitterScope?: JitterScope;
  /** contact time zones by enrollment id (used with schedule.useContactTimezone) */
  contactTimezones?: Map<string, string | null>;
  /** the campaign-wide daily limit of step-1 sends across its inboxes and its bookings per day; absent: no campaign cap */
  campaignCap?: CampaignCap | null;
  /** recipients' providers by enrollment id (match_recipient_provider): preferred inboxes; absent: no preference */
  recipientProviders?: Map<string, RecipientProvider>;
}

export interface PlannedSend {
  enrollmentId: string;
  credentialId: string;
  stepPosition: number;
  dueAt: Date;
  /** the day booked against the mailbox's daily limit (step 1 only) */
  limitDay: string | null;
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function planSchedule(input: PlanInput): PlannedSend[] {
  return planScheduleChunk(input).sends;
}

export interface PlannedChunk {
  sends: PlannedSend[];
  /** the credentials' streams after these sends: the input of the next chunk of the same batch */
  streams: CredentialStream[];
}

/** More days than any plan looks ahead: a guard against a stream that can never send. */
const MAX_DAYS_AHEAD = 3660;

/**
 * planSchedule for one chunk of a batch: also returns the streams as they stand
 * after it (bookings and last step-1 times), so the next chunk continues the
 * spacing and the daily limits where this one stopped.
 */
export function planScheduleChunk(input: PlanInput): PlannedChunk {
  const random = input.random ?? Math.random;
  const schedule = input.schedule ?? null;
  const credentials = input.credentials.filter((c) => c.dailyLimit > 0);
  if (credentials.length === 0) throw new Error("no credential can send");
  const jitterMs = () => Math.round((input.minWaitSeconds + random() * (input.maxWaitSeconds - input.minWaitSeconds)) * 1000);
  const cumulativeMs: number[] = [];
  input.stepDelaysMinutes.reduce((sum, minutes, i) => (cumulativeMs[i] = sum + (i === 0 ? 0 : minutes) * 60_000), 0);

  const keyOf = (c: CredentialStream) => c.mailbox ?? c.id;
  const booked = new Map<string, Map<string, number>>();
  for (const c of credentials) if (!booked.has(keyOf(c))) booked.set(keyOf(c), new Map(c.booked));
  const bookedOn = (c: CredentialStream, day: string) => booked.get(keyOf(c))!.get(day) ?? 0;
  const campaignCap = input.campaignCap ? { dailyLimit: input.campaignCap.dailyLimit, booked: new Map(input.campaignCap.booked) } : null;
  const campaignCapRoom = (day: string) => !campaignCap || (campaignCap.booked.get(day) ?? 0) < campaignCap.dailyLimit;
  const hasRoom = (c: CredentialStream, day: string) => bookedOn(c, day) < dailyLimitOn(c.dailyLimit, c.ramp, day) && campaignCapRoom(day);
  const lastDueAt = new Map(credentials.map((c) => [c.id, c.lastDueAt]));
  const lastByZone = new Map(credentials.map((c) => [c.id, c.lastByZone ? new Map(c.lastByZone) : null]));
  const lastIn = (c: CredentialStream, zone: string): Date | null => {
    const byZone = lastByZone.get(c.id)!;
    return byZone ? (byZone.get(zone) ?? null) : lastDueAt.get(c.id)!;
  };
  const after = (prev: Date | null): Date => {
    if (!prev) return input.now;
    const t = new Date(prev.getTime() + jitterMs());
    return t > input.now ? t : input.now;
  };
  /** the first time from `at` inside the window on a day `fits` accepts, with that day */
  const firstFit = (zone: string, at: Date, fits: (day: string) => boolean): { at: Date; day: string } => {
    let t = nextOpening(schedule, zone, at);
    for (let i = 0; i < MAX_DAYS_AHEAD; i++) {
      const day = sendDay(schedule, zone, t);
      if (fits(day)) return { at: t, day };
      t = openingFromDay(schedule, zone, dayAfter(day));
    }
    throw new Error("no day with room to send");
  };

  /** with a recipient provider: the inboxes of that provider, when the campaign has any; else null (every inbox) */
  const preferredOf = (wanted: RecipientProvider | undefined): CredentialStream[] | null => {
    if (!wanted) return null;
    const same = credentials.filter((c) => c.provider === wanted);
    return same.length > 0 ? same : null;
  };

  // batch scope: one cursor per zone across all credentials
  const pickBatch = (zone: string, preferred: CredentialStream[] | null) => {
    let prev: Date | null = null;
    for (const c of credentials) {
      const last = lastIn(c, zone);
      if (last && (!prev || last > prev)) prev = last;
    }
    const { at, day } = firstFit(zone, after(prev), (d) => credentials.some((c) => hasRoom(c, d)));
    // the inbox with room that sent least recently: inboxes take turns (among the preferred ones first)
    const leastRecent = (candidates: CredentialStream[]) => {
      let chosen: CredentialStream | null = null;
      for (const c of candidates) {
        if (!hasRoom(c, day)) continue;
        const last = lastDueAt.get(c.id)?.getTime() ?? -Infinity;
        const best = chosen ? (lastDueAt.get(chosen.id)?.getTime() ?? -Infinity) : Infinity;
        if (!chosen || last < best || (last === best && bookedOn(c, day) < bookedOn(chosen, day))) chosen = c;
      }
      return chosen;
    };
    const chosen = (preferred && leastRecent(preferred)) ?? leastRecent(credentials);
    return { chosen: chosen!, at, day };
  };

  // inbox scope: one cursor per credential and zone; the jitter after a credential's last send is drawn once
  const starts = new Map<string, Date>();
  const pickInbox = (zone: string, preferred: CredentialStream[] | null) => {
    const soonest = (candidates: CredentialStream[]) => {
      let best: { chosen: CredentialStream; at: Date; day: string } | null = null;
      for (const c of candidates) {
        const key = `${c.id} ${zone}`;
        if (!starts.has(key)) starts.set(key, after(lastIn(c, zone)));
        const fit = firstFit(zone, starts.get(key)!, (d) => hasRoom(c, d));
        const diff = best ? fit.at.getTime() - best.at.getTime() : -1;
        // soonest first; on a tie (e.g. no jitter) fewer sends booked that day, so inboxes alternate
        if (!best || diff < 0 || (diff === 0 && bookedOn(c, fit.day) < bookedOn(best.chosen, best.day))) best = { chosen: c, ...fit };
      }
      return best!;
    };
    const any = soonest(credentials);
    // a preferred inbox when one can send on the day any inbox could
    const match = preferred ? soonest(preferred) : null;
    const picked = match && match.day <= any.day ? match : any;
    starts.delete(`${picked.chosen.id} ${zone}`);
    return picked;
  };

  const sends: PlannedSend[] = [];
  const inboxScope = input.jitterScope === "inbox";
  for (const enrollmentId of input.enrollmentIds) {
    const zone = scheduleZone(schedule, input.contactTimezones?.get(enrollmentId) ?? null);
    const preferred = preferredOf(input.recipientProviders?.get(enrollmentId));
    const { chosen, at: dueAt, day } = inboxScope ? pickInbox(zone, preferred) : pickBatch(zone, preferred);
    const mailbox = booked.get(keyOf(chosen))!;
    mailbox.set(day, (mailbox.get(day) ?? 0) + 1);
    campaignCap?.booked.set(day, (campaignCap.booked.get(day) ?? 0) + 1);
    const last = lastDueAt.get(chosen.id);
    lastDueAt.set(chosen.id, last && last > dueAt ? last : dueAt);
    const byZone = lastByZone.get(chosen.id) ?? new Map<string, Date>();
    byZone.set(zone, dueAt);
    lastByZone.set(chosen.id, byZone);
    cumulativeMs.forEach((offset, i) => {
      sends.push({
        enrollmentId,
        credentialId: chosen.id,
        stepPosition: i + 1,
        dueAt: i === 0 ? dueAt : nextOpening(schedule, zone, new Date(dueAt.getTime() + offset)),
        limitDay: i === 0 ? day : null,
      });
    });
  }
  const streams = input.credentials.map((c) =>
    booked.has(keyOf(c)) && lastDueAt.has(c.id) ? { ...c, booked: booked.get(keyOf(c))!, lastDueAt: lastDueAt.get(c.id)!, lastByZone: lastByZone.get(c.id) ?? c.lastByZone } : c,
  );
  return { sends, streams };
}
