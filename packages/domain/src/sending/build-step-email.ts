import { escapeHtml, renderMessage, type KeySource, type MergeContact } from "@outreach/core";
import { isTemplateLink, rewriteLinks, templateLinks } from "../tracking/click-tracking.js";
import { clickTrackingUrl, listUnsubscribeHeaders, trackingBase, trackingLinks } from "../tracking/tracking-links.js";

export interface StepEmailInput {
  /** the send row's id: the Message-ID is derived from it, so a retried send keeps its id */
  stepSendId: string;
  enrollmentId: string;
  stepPosition: number;
  subject: string;
  bodyHtml: string;
  /** the rendered subject of step 1, for "Re: " follow-ups without a subject of their own */
  firstSubject: string | null;
  contact: MergeContact & { email: string };
  from: { email: string; name: string | null };
  /** Message-IDs of the earlier steps sent to this enrollment, oldest first */
  previousMessageIds: string[];
  publicBaseUrl: string;
  /** host of the tracking links in place of PUBLIC_BASE_URL's (the inbox's or the campaign's custom tracking domain) */
  trackingDomain?: string | null;
  /** links in the HTML go through the click redirect */
  trackClicks?: boolean;
  /** the keyring (the links are made with its current key) */
  trackingKey: KeySource;
  /** text/plain only: no HTML part, so no open pixel and no click redirect */
  textOnly?: boolean;
  /** the campaign's unsubscribe line (may hold {{unsubscribe_url}}); null or absent: "Unsubscribe" */
  unsubscribeFooter?: string | null;
}

export interface StepEmail {
  from: { address: string; name: string };
  to: string;
  subject: string;
  /** absent for a text-only step */
  html?: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  headers: Record<string, string>;
}

export function messageIdFor(stepSendId: string, fromEmail: string): string {
  const domain = fromEmail.slice(fromEmail.lastIndexOf("@") + 1) || "localhost";
  return `<${stepSendId}@${domain}>`;
}

/**
 * The rendered HTML with its links through the click redirect: only links of
 * the template whose scheme and host are written in it (see templateLinks);
 * the others, a link made of a contact's field above all, are left as they
 * are, so the redirect never leads where the template did not say.
 */
function trackLinks(html: string, input: StepEmailInput): string {
  const links = templateLinks(input.bodyHtml);
  const base = trackingBase(input.publicBaseUrl, input.trackingDomain);
  return rewriteLinks(html, (url) => (isTemplateLink(links, url) ? clickTrackingUrl(base, input.trackingKey, input.enrollmentId, url) : null));
}

export const UNSUBSCRIBE_URL_TAG = "{{unsubscribe_url}}";

/**
 * The unsubscribe line in HTML and in text. A custom text is HTML-escaped, its
 * {{unsubscribe_url}} becomes the link (the URL as the link's text); a text
 * without the tag gets the link appended, so the link is always there.
 */
export function unsubscribeFooter(custom: string | null | undefined, url: string): { html: string; text: string } {
  const link = (label: string) => `<a href="${escapeHtml(url)}" style="color:#888888">${escapeHtml(label)}</a>`;
  if (!custom) return { html: link("Unsubscribe"), text: `Unsubscribe: ${url}` };
  const parts = custom.split(UNSUBSCRIBE_URL_TAG);
  if (parts.length === 1) return { html: `${escapeHtml(custom)} ${link(url)}`, text: `${custom}\n${url}` };
  return { html: parts.map(escapeHtml).join(link(url)), text: parts.join(url) };
}

/**
 * A sequence step as the contact receives it: merge tags applied, follow-ups
 * threaded (In-Reply-To, References, "Re: " when the step has no subject of its
 * own), the open pixel, the template's links through the click redirect when
 * clicks are tracked, a visible unsubscribe link, List-Unsubscribe with
 * one-click POST (RFC 8058), and a plain-text alternative. A text-only step
 * is the plain text alone (the body turned into text, the unsubscribe URL on
 * its own line): no HTML part, so no pixel and no click redirect.
 */
export function buildStepEmail(input: StepEmailInput): StepEmail {
  const rendered = renderMessage({ subject: input.subject, bodyHtml: input.bodyHtml }, input.contact);
  const base = trackingBase(input.publicBaseUrl, input.trackingDomain);
  const links = trackingLinks(base, input.trackingKey, input.enrollmentId);
  const subject = rendered.subject || (input.firstSubject ? `Re: ${input.firstSubject.replace(/^(re:\s*)+/i, "")}` : "");
  const footer = unsubscribeFooter(input.unsubscribeFooter, links.unsubscribeUrl);
  const footerHtml =
    `<p style="font-size:12px;color:#888888;margin-top:24px">${footer.html}</p>` +
    `<img src="${escapeHtml(links.openPixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  // the text part keeps the original links: a redirect there would show as a long opaque URL
  const body = input.textOnly ? "" : input.trackClicks ? trackLinks(rendered.html, input) : rendered.html;
  const html = /<\/body>/i.test(body) ? body.replace(/<\/body>/i, `${footerHtml}</body>`) : body + footerHtml;
  const previous = input.previousMessageIds;
  return {
    from: { address: input.from.email, name: input.from.name ?? "" },
    to: input.contact.email,
    subject,
    ...(input.textOnly ? {} : { html }),
    text: `${rendered.text}\n\n--\n${footer.text}\n`,
    messageId: messageIdFor(input.stepSendId, input.from.email),
    ...(previous.length ? { inReplyTo: previous[previous.length - 1], references: previous } : {}),
    headers: { ...listUnsubscribeHeaders(links.unsubscribeUrl, input.from.email) },
  };
}
