import type { CredentialStream, planSchedule } from "../src/sending/schedule-plan.js";

/** An inbox's stream with nothing booked yet (or what `extra` sets). */
export const stream = (id: string, dailyLimit: number, extra: Partial<CredentialStream> = {}): CredentialStream => ({ id, dailyLimit, booked: new Map(), lastDueAt: null, ...extra });

/** Enrollment ids e1..en. */
export const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i + 1}`);

/** The step-1 sends of a plan. */
export const step1 = (sends: ReturnType<typeof planSchedule>) => sends.filter((s) => s.stepPosition === 1);
