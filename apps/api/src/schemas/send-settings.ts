import { isValidTimezone, WEEKDAYS } from "@outreach/domain";
import type { CreateCampaignBody } from "../contracts/generated.js";
import { J } from "../validation.js";

export const JITTER_SCOPES = ["batch", "inbox"] as const;
export type JitterScope = (typeof JITTER_SCOPES)[number];

const canonicalZones = new Map<string, string>();

/** The zone's canonical spelling ("america/new_york" -> "America/New_York"), or null when it is not an IANA zone. */
export function canonicalTimezone(name: string): string | null {
  const known = canonicalZones.get(name);
  if (known) return known;
  if (name.length > 100 || !isValidTimezone(name)) return null;
  const canonical = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  // import rows repeat a few zones: remember them (bounded, as the spellings come from requests)
  if (canonicalZones.size < 2000) canonicalZones.set(name, canonical);
  return canonical;
}

/** A time zone by its IANA name ("America/New_York"), as Luxon knows it; stored in its canonical spelling. */
export const timezoneField = J.string()
  .trim()
  .max(100)
  .custom((value: string, helpers) => canonicalTimezone(value) ?? helpers.message({ custom: "{{#label}} must be an IANA time zone name such as America/New_York" }), "IANA time zone");

const clockTime = J.string()
  .pattern(/^([01]\d|2[0-3]):[0-5]\d$/, { name: "HH:MM" })
  .messages({ "string.pattern.name": "{{#label}} must be a time of day as HH:MM (00:00 to 23:59)" });

/** Skip dates a schedule may list: a year of holidays and then some. */
export const MAX_SKIP_DATES = 366;

/** A calendar date as YYYY-MM-DD that exists (2026-02-30 does not). */
const calendarDate = J.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/, { name: "YYYY-MM-DD" })
  .messages({ "string.pattern.name": "{{#label}} must be a date as YYYY-MM-DD" })
  .custom((value: string, helpers) => {
    const at = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value ? value : helpers.message({ custom: "{{#label}} is not a calendar date" });
  }, "calendar date");

/** A validated sending window (scheduleField, as generated for the campaign contracts). */
export type ScheduleInput = NonNullable<CreateCampaignBody["schedule"]>;

/**
 * A campaign's sending window; null means any time. Stored normalized: every
 * field present, days in week order. end_time before start_time is a window
 * crossing midnight; equal times are the whole day.
 */
export const scheduleField = J.object({
  timezone: timezoneField.default("UTC"),
  days: J.array()
    .items(J.string().valid(...WEEKDAYS))
    .min(1)
    .unique()
    .default([...WEEKDAYS]),
  start_time: clockTime.required(),
  end_time: clockTime.required(),
  use_contact_timezone: J.boolean().default(false),
  // holidays: no window opens on these local dates
  skip_dates: J.array().items(calendarDate).max(MAX_SKIP_DATES).unique().messages({ "array.unique": "{{#label}} repeats a date" }).default([]),
})
  .custom((value: ScheduleInput) => ({ ...value, days: WEEKDAYS.filter((day) => value.days.includes(day)), skip_dates: [...value.skip_dates].sort() }), "days in week order, dates sorted")
  .allow(null);

/** A validated warm-up (rampField, as generated for the campaign contracts). */
export type RampInput = NonNullable<CreateCampaignBody["smtp_credentials"][number]["ramp"]>;

/** A new inbox's warm-up: start_per_day on the first day, increase_per_day more each day, up to daily_limit. */
export const rampField = J.object({
  start_per_day: J.number().integer().min(1).max(1_000_000).required(),
  increase_per_day: J.number().integer().min(1).max(1_000_000).required(),
}).allow(null);

export const jitterScopeField = J.string().valid(...JITTER_SCOPES);
