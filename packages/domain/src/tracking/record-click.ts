import { sentStepTemplates } from "@outreach/db";
import { isTemplateLink, templateLinks, type TemplateLink } from "./click-tracking.js";
import { enrollmentEventData, recordEvent } from "../webhooks/record-event.js";
import { parseStepVariants } from "../sending/step-variants.js";
import { stopEnrollments } from "../sending/stop-enrollments.js";
import { inTransaction, type Tx } from "../tx.js";

/**
 * Whether a click link (its MAC already checked) may redirect: its enrollment
 * still exists (not a deleted campaign's, not a test send's nil one) and the
 * destination is one of the trackable links (see templateLinks) of a step
 * template that enrollment was sent (the A/B variant it got). Templates do
 * not change once a campaign is created, so the links of emails already
 * delivered, older ones included, keep redirecting while their enrollment
 * exists; a send whose variant is not recorded yet (still being sent) is
 * checked against all the step's variants.
 */
export async function isSentLink(db: Tx, enrollmentId: string, url: string): Promise<boolean> {
  const rows = await sentStepTemplates(db, enrollmentId);
  const links: TemplateLink[] = [];
  for (const row of rows) {
    const variants = parseStepVariants(row.variants);
    const bodies = !variants ? [row.bodyHtml] : variants.filter((v) => row.variantId === null || v.id === row.variantId).map((v) => v.bodyHtml);
    for (const body of bodies) links.push(...templateLinks(body));
  }
  return isTemplateLink(links, url);
}

/**
 * Records a click of a tracked link. The enrollment's first click sets
 * clickedAt and emits enrollment.clicked (an opt-in event) with the link's
 * destination; later clicks change nothing and cost one plain read. Returns
 * whether this was the first click. The enrollment's status is not changed: a
 * click is counted beside it (totals.clicked), like an open is credited in
 * open_rate. With the campaign's stop_on_click, the first click also stops the
 * enrollment (its steps not yet out cancelled), in the same transaction.
 */
export async function recordClick(db: Tx, enrollmentId: string, url: string, now = new Date()): Promise<boolean> {
  const seen = await db.enrollment.findUnique({ where: { id: enrollmentId }, select: { clickedAt: true } });
  if (!seen || seen.clickedAt) return false;
  return inTransaction(db, (tx) => recordFirstClick(tx, enrollmentId, url, now));
}

async function recordFirstClick(tx: Tx, enrollmentId: string, url: string, now: Date): Promise<boolean> {
  // of clicks racing here one sets clickedAt; the others wait for its row lock and then match nothing
  const claimed = await tx.enrollment.updateMany({ where: { id: enrollmentId, clickedAt: null }, data: { clickedAt: now } });
  if (claimed.count === 0) return false;
  const enrollment = await tx.enrollment.findUniqueOrThrow({
    where: { id: enrollmentId },
    include: { contact: { select: { id: true, email: true } }, campaign: { select: { stopOnClick: true } } },
  });
  await recordEvent(tx, enrollment.accountId, "enrollment.clicked", { ...enrollmentEventData(enrollment, enrollment.contact), url, clicked_at: now.toISOString() });
  if (enrollment.campaign.stopOnClick) await stopEnrollments(tx, [enrollmentId], "clicked", now);
  return true;
}
