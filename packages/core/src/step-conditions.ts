/**
 * When a step of position 2 or later goes out, judged as it falls due: always
 * (none), or by whether the contact opened or clicked an earlier step.
 * Opens are unreliable (blocked images, proxies that pre-fetch the pixel).
 */
export const STEP_CONDITIONS = ["none", "opened", "not_opened", "clicked", "not_clicked"] as const;
export type StepCondition = (typeof STEP_CONDITIONS)[number];

export function isStepCondition(value: unknown): value is StepCondition {
  return typeof value === "string" && (STEP_CONDITIONS as readonly string[]).includes(value);
}
