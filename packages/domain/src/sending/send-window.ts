import { DateTime, IANAZone } from "luxon";

/**
 * A campaign's sending window: the week days and local hours at which sends may
 * go out, in one IANA time zone (or each contact's own, with
 * useContactTimezone). An end before the start means the window crosses
 * midnight; such a window belongs to the day it starts on (its daily limit day
 * too). Equal start and end: the whole day. Local times are resolved by Luxon,
 * so DST changes move the window with the wall clock.
 */
export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";

export interface SendSchedule {
  timezone: string;
  days: Weekday[];
  startTime: string;
  endTime: string;
  useContactTimezone: boolean;
  /** local dates ("YYYY-MM-DD") on which no window opens (holidays); absent: none */
  skipDates?: ReadonlySet<string>;
}

export const WEEKDAYS: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

export function isValidTimezone(name: unknown): name is string {
  return typeof name === "string" && name.length > 0 && IANAZone.isValidZone(name);
}

function skipDatesOf(json: unknown): { skipDates?: ReadonlySet<string> } {
  const dates = Array.isArray(json) ? json.filter((d): d is string => typeof d === "string") : [];
  return dates.length > 0 ? { skipDates: new Set(dates) } : {};
}

/** The schedule stored in campaigns.schedule (already validated), or null for "any time". */
export function parseSchedule(json: unknown): SendSchedule | null {
  if (json === null || json === undefined || typeof json !== "object") return null;
  const raw = json as Record<string, unknown>;
  return {
    timezone: typeof raw.timezone === "string" && raw.timezone ? raw.timezone : "UTC",
    days: (Array.isArray(raw.days) ? raw.days : WEEKDAYS).filter((d): d is Weekday => WEEKDAYS.includes(d as Weekday)),
    startTime: typeof raw.start_time === "string" ? raw.start_time : "00:00",
    endTime: typeof raw.end_time === "string" ? raw.end_time : "00:00",
    useContactTimezone: raw.use_contact_timezone === true,
    ...skipDatesOf(raw.skip_dates),
  };
}

/** The zone a contact's sends are planned in: theirs with use_contact_timezone (when valid), else the campaign's; UTC without a schedule. */
export function scheduleZone(schedule: SendSchedule | null, contactTimezone: string | null): string {
  if (!schedule) return "UTC";
  if (schedule.useContactTimezone && contactTimezone && isValidTimezone(contactTimezone)) return contactTimezone;
  return schedule.timezone;
}

function hm(time: string): { hour: number; minute: number } {
  const [h, m] = time.split(":");
  return { hour: Number(h), minute: Number(m) };
}

/** The window that starts on the local date `day` (a DateTime at that day's start in the zone), or null on a day off or a skip date. */
function windowOn(schedule: SendSchedule, day: DateTime): { start: DateTime; end: DateTime } | null {
  if (!schedule.days.includes(WEEKDAYS[day.weekday - 1]!)) return null;
  if (schedule.skipDates?.has(day.toISODate()!)) return null;
  const at = (time: string, plusDays: number) => {
    const d = day.plus({ days: plusDays });
    return DateTime.fromObject({ year: d.year, month: d.month, day: d.day, ...hm(time) }, { zone: day.zone });
  };
  const start = at(schedule.startTime, 0);
  const crosses = schedule.endTime <= schedule.startTime;
  return { start, end: at(schedule.endTime, crosses ? 1 : 0) };
}

function localDate(zone: string, at: Date): DateTime {
  const t = DateTime.fromJSDate(at, { zone });
  if (!t.isValid) throw new Error(`invalid time zone ${zone}`);
  return t.startOf("day");
}

interface Window {
  start: number;
  end: number;
  /** the local date the window starts on */
  day: string;
}

/**
 * A schedule's windows in one zone as UTC instants, built with Luxon once per
 * day and then searched: the planner asks for every send, and Luxon costs tens
 * of microseconds a call.
 */
class WindowCalendar {
  private windows: Window[] = [];
  private nextDay: DateTime | null = null;
  /** the start of the first day built: windows starting from then on are known */
  private begin = Infinity;

  constructor(
    private readonly schedule: SendSchedule,
    private readonly zone: string,
  ) {
    if (schedule.days.length === 0) throw new Error("a schedule needs at least one day");
  }

  private startAt(at: number): void {
    // from two days before: a window crossing midnight may have started the day before
    this.nextDay = localDate(this.zone, new Date(at)).minus({ days: 2 });
    this.begin = this.nextDay.toMillis();
    this.windows = [];
  }

  private extend(): void {
    for (let i = 0; i < 7; i++) {
      const w = windowOn(this.schedule, this.nextDay!);
      if (w) this.windows.push({ start: w.start.toMillis(), end: w.end.toMillis(), day: this.nextDay!.toISODate()! });
      this.nextDay = this.nextDay!.plus({ days: 1 });
    }
  }

  /** The first window ending after `at`. */
  after(at: number): Window {
    // `at` needs the windows of its own local day and the day before (26 h: a day is 23 to 25 h long)
    if (at < this.begin + 26 * 3_600_000) this.startAt(at);
    while (this.windows.length === 0 || this.windows[this.windows.length - 1]!.end <= at) this.extend();
    let lo = 0;
    let hi = this.windows.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.windows[mid]!.end > at) hi = mid;
      else lo = mid + 1;
    }
    return this.windows[lo]!;
  }

  /** The first window starting on local date `day` or later, and after `notBefore`. */
  fromDay(day: string, notBefore: number): Window {
    const first = DateTime.fromISO(day, { zone: this.zone }).toMillis();
    let w = this.after(Math.max(first, notBefore));
    while (w.day < day || w.start <= notBefore) w = this.after(w.end);
    return w;
  }
}

const calendars = new WeakMap<SendSchedule, Map<string, WindowCalendar>>();

function calendar(schedule: SendSchedule, zone: string): WindowCalendar {
  let byZone = calendars.get(schedule);
  if (!byZone) calendars.set(schedule, (byZone = new Map()));
  let cal = byZone.get(zone);
  if (!cal) byZone.set(zone, (cal = new WindowCalendar(schedule, zone)));
  return cal;
}

/** `at` itself when it is inside a window (or there is no schedule), else the start of the next window. */
export function nextOpening(schedule: SendSchedule | null, zone: string, at: Date): Date {
  if (!schedule) return at;
  const w = calendar(schedule, zone).after(at.getTime());
  return w.start <= at.getTime() ? at : new Date(w.start);
}

/**
 * The first moment from local date `day` on ("YYYY-MM-DD") at which a send may
 * go out, not before `notBefore`: the start of the first window starting on
 * that day or later; without a schedule, the day's midnight in the zone.
 */
export function openingFromDay(schedule: SendSchedule | null, zone: string, day: string, notBefore?: Date): Date {
  if (!schedule && zone === "UTC") return new Date(`${day}T00:00:00.000Z`);
  if (!schedule) return DateTime.fromISO(day, { zone }).startOf("day").toJSDate();
  return new Date(calendar(schedule, zone).fromDay(day, notBefore ? notBefore.getTime() : -Infinity).start);
}

/** The local date ("YYYY-MM-DD") of `at` in the zone. */
export function localDay(zone: string, at: Date): string {
  // the planner asks this for every send: UTC (no schedule) without Luxon
  if (zone === "UTC") return at.toISOString().slice(0, 10);
  return localDate(zone, at).toISODate()!;
}

/** The day a send at `at` counts against a daily limit: the day its window started on (a window crossing midnight), else its local date. */
export function sendDay(schedule: SendSchedule | null, zone: string, at: Date): string {
  const w = schedule ? calendar(schedule, zone).after(at.getTime()) : null;
  return w && w.start <= at.getTime() ? w.day : localDay(zone, at);
}

/** The local date after `day` ("YYYY-MM-DD"). */
export function dayAfter(day: string): string {
  return DateTime.fromISO(day, { zone: "UTC" }).plus({ days: 1 }).toISODate()!;
}
