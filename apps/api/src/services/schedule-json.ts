import { Prisma } from "@outreach/db";
import type { ScheduleInput } from "../schemas/send-settings.js";

/** The validated schedule as stored in campaigns.schedule: the normalized object, or SQL NULL for "any time". */
export function scheduleJson(schedule: ScheduleInput | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (schedule === null) return Prisma.DbNull;
  return {
    timezone: schedule.timezone,
    days: schedule.days,
    start_time: schedule.start_time,
    end_time: schedule.end_time,
    use_contact_timezone: schedule.use_contact_timezone,
    skip_dates: schedule.skip_dates,
  };
}
