import { setImmediate as nextTurn } from "node:timers/promises";
import { AppError, missingMessageTags, renderMessage } from "@outreach/core";
import type { Db } from "@outreach/db";
import { parseStepVariants, stepContentFor } from "@outreach/domain";
import { isUuid } from "../validation.js";
import { findCampaignWithRelations } from "./find-campaign.js";

export interface PreviewStep {
  position: number;
  delayMinutes: number;
  subject: string;
  html: string;
  text: string;
  /** Tags of the subject or body with no value for this contact and no fallback (they render empty): ["custom.plan"]. */
  missingTags: string[];
  /** the A/B variant shown: the contact's own when enrolled in the campaign, else the first; null for a step without variants */
  variantId: string | null;
}

export interface CampaignPreview {
  campaignId: string;
  contactId: string;
  position: number;
  selected: PreviewStep;
  steps: PreviewStep[];
}

/**
 * Every step of the campaign rendered for one of the account's contacts, with
 * the requested position picked out. A step with variants shows the variant the
 * contact gets (its enrollment's), or the first when it is not enrolled.
 */
export async function previewCampaign(db: Db, accountId: string, campaignId: string, contactId: string, position: number): Promise<CampaignPreview> {
  const campaign = await findCampaignWithRelations(db, accountId, campaignId);
  const contact = isUuid(contactId) ? await db.contact.findFirst({ where: { id: contactId, accountId } }) : null;
  if (!contact) throw new AppError("contact_not_found");

  // A step at the size cap takes milliseconds to render: other requests get their turn between steps.
  const enrollment = await db.enrollment.findUnique({ where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } }, select: { id: true } });
  const steps: PreviewStep[] = [];
  for (const step of campaign.steps) {
    if (steps.length > 0) await nextTurn();
    const first = parseStepVariants(step.variants)?.[0];
    const content = enrollment ? stepContentFor(step, enrollment.id, step.position) : { subject: step.subject, bodyHtml: step.bodyHtml, variantId: first?.id ?? null };
    steps.push({ position: step.position, delayMinutes: step.delayMinutes, ...renderMessage(content, contact), missingTags: missingMessageTags(content, contact), variantId: content.variantId });
  }
  const selected = steps.find((step) => step.position === position);
  if (!selected) {
    const message = `position must be one of the campaign's step positions (1 to ${steps.length})`;
    throw new AppError("validation_failed", message, { errors: [{ field: "position", message }] });
  }
  return { campaignId: campaign.id, contactId: contact.id, position, selected, steps };
}
