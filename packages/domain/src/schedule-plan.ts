/**
 * The pure part of dispatch: which credential sends each enrollment's step 1 and
 * when. Every credential is its own stream: consecutive step-1 sends of one
 * inbox are spaced by a random wait in [minWait, maxWait] seconds; no
 * credential books more step-1 sends on a UTC day than its daily limit; what
 * does not fit goes to the following days. Enrollments go, in the order given,
 * to the credential that can send soonest, which rotates through the inboxes.
 * Later steps follow step 1 at the cumulative delay and do not count against
 * the daily limit.
 */
export interface CredentialStream {
  id: string;
  dailyLimit: number;
  /** step-1 sends already booked per UTC day ("YYYY-MM-DD") */
  booked: Map<string, number>;
  /** the last step-1 send already scheduled on this credential, if any */
  lastDueAt: Date | null;
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
}

export interface PlannedSend {
  enrollmentId: string;
  credentialId: string;
  stepPosition: number;
  dueAt: Date;
  /** the UTC day booked against the credential's daily limit (step 1 only) */
  limitDay: string | null;
}

const DAY_MS = 86_400_000;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function startOfNextUtcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export function planSchedule(input: PlanInput): PlannedSend[] {
  return planScheduleChunk(input).sends;
}

export interface PlannedChunk {
  sends: PlannedSend[];
  /** the credentials' streams after these sends: the input of the next chunk of the same batch */
  streams: CredentialStream[];
}

/**
 * planSchedule for one chunk of a batch: also returns the streams as they stand
 * after it (bookings and last step-1 time per credential), so the next chunk
 * continues the spacing and the daily limits where this one stopped.
 */
export function planScheduleChunk(input: PlanInput): PlannedChunk {
  const random = input.random ?? Math.random;
  const credentials = input.credentials.filter((c) => c.dailyLimit > 0);
  if (credentials.length === 0) throw new Error("no credential can send");
  const jitterMs = () => Math.round((input.minWaitSeconds + random() * (input.maxWaitSeconds - input.minWaitSeconds)) * 1000);
  const cumulativeMs: number[] = [];
  input.stepDelaysMinutes.reduce((sum, minutes, i) => (cumulativeMs[i] = sum + (i === 0 ? 0 : minutes) * 60_000), 0);

  const booked = new Map(credentials.map((c) => [c.id, new Map(c.booked)]));
  const bookedOn = (id: string, day: string) => booked.get(id)!.get(day) ?? 0;
  const cursor = new Map<string, Date>();
  // The next moment a credential may send: after its last scheduled send, never in the past,
  // and on a day it still has room.
  const fit = (c: CredentialStream, at: Date): Date => {
    let t = at;
    while (bookedOn(c.id, utcDay(t)) >= c.dailyLimit) t = startOfNextUtcDay(t);
    return t;
  };
  for (const c of credentials) {
    const afterLast = c.lastDueAt ? new Date(c.lastDueAt.getTime() + jitterMs()) : input.now;
    cursor.set(c.id, fit(c, afterLast > input.now ? afterLast : input.now));
  }

  const sends: PlannedSend[] = [];
  const lastDueAt = new Map(credentials.map((c) => [c.id, c.lastDueAt]));
  // soonest cursor first; on a tie (e.g. no jitter) the credential with fewer sends booked that
  // day, so inboxes alternate (from bookings, not from this call's count: a batch planned in
  // chunks rotates as it would in one go)
  const sooner = (a: CredentialStream, b: CredentialStream) => {
    const at = cursor.get(a.id)!;
    const diff = at.getTime() - cursor.get(b.id)!.getTime();
    return diff !== 0 ? diff < 0 : bookedOn(a.id, utcDay(at)) < bookedOn(b.id, utcDay(at));
  };
  for (const enrollmentId of input.enrollmentIds) {
    let chosen = credentials[0]!;
    for (const c of credentials) if (sooner(c, chosen)) chosen = c;
    const dueAt = cursor.get(chosen.id)!;
    const day = utcDay(dueAt);
    booked.get(chosen.id)!.set(day, bookedOn(chosen.id, day) + 1);
    lastDueAt.set(chosen.id, dueAt);
    cursor.set(chosen.id, fit(chosen, new Date(dueAt.getTime() + jitterMs())));
    cumulativeMs.forEach((offset, i) => {
      sends.push({
        enrollmentId,
        credentialId: chosen.id,
        stepPosition: i + 1,
        dueAt: i === 0 ? dueAt : new Date(dueAt.getTime() + offset),
        limitDay: i === 0 ? day : null,
      });
    });
  }
  const streams = input.credentials.map((c) => (booked.has(c.id) ? { ...c, booked: booked.get(c.id)!, lastDueAt: lastDueAt.get(c.id)! } : c));
  return { sends, streams };
}
