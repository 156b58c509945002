import type { StepCondition } from "@outreach/core";

/** What a step's condition is judged on: the enrollment's first open and first click of a tracked link. */
export interface EngagementSoFar {
  openedAt: Date | null;
  clickedAt: Date | null;
}

/**
 * Why a step's condition is not met when the step falls due, or null when it
 * is (always for "none"). Judged on what the enrollment did before now: an
 * open counts whatever opened it (a client, or a proxy fetching the pixel).
 */
export function unmetConditionReason(condition: StepCondition, engagement: EngagementSoFar): string | null {
  const { openedAt, clickedAt } = engagement;
  switch (condition) {
    case "none":
      return null;
    case "opened":
      return openedAt ? null : "condition opened not met: no open of an earlier step was recorded";
    case "not_opened":
      return openedAt ? `condition not_opened not met: the contact opened on ${openedAt.toISOString()}` : null;
    case "clicked":
      return clickedAt ? null : "condition clicked not met: no click of a tracked link was recorded";
    case "not_clicked":
      return clickedAt ? `condition not_clicked not met: the contact clicked on ${clickedAt.toISOString()}` : null;
  }
}
