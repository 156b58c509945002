import { setImmediate as nextTurn } from "node:timers/promises";
import { AppError, renderMessage } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import { findCampaignWithRelations } from "./find-campaign.js";

export interface PreviewStep {
  position: number;
  delayMinutes: number;
  subject: string;
  html: string;
  text: string;
}

export interface CampaignPreview {
  campaignId: string;
  contactId: string;
  position: number;
  selected: PreviewStep;
  steps: PreviewStep[];
}

/** Every step of the campaign rendered for one of the account's contacts, with the requested position picked out. */
export async function previewCampaign(db: Db, accountId: string, campaignId: string, contactId: string, position: number): Promise<CampaignPreview> {
  const campaign = await findCampaignWithRelations(db, accountId, campaignId);
  const contact = isUuid(contactId) ? await db.contact.findFirst({ where: { id: contactId, accountId } }) : null;
  if (!contact) throw new AppError("contact_not_found");

  // A step at the size cap takes milliseconds to render: other requests get their turn between steps.
  const steps: PreviewStep[] = [];
  for (const step of campaign.steps) {
    if (steps.length > 0) await nextTurn();
    steps.push({ position: step.position, delayMinutes: step.delayMinutes, ...renderMessage(step, contact) });
  }
  const selected = steps.find((step) => step.position === position);
  if (!selected) {
    const message = `position must be one of the campaign's step positions (1 to ${steps.length})`;
    throw new AppError("validation_failed", message, { errors: [{ field: "position", message }] });
  }
  return { campaignId: campaign.id, contactId: contact.id, position, selected, steps };
}
