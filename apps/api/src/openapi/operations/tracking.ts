import type { SuccessResponse } from "../operation.js";
import { defineOperations } from "../operation.js";

const TAG = "Tracking";
const html = "text/html";
const token = { token: "The signed token from the link in the email." };

const textHeader = (description: string) => ({ description, schema: { type: "string" } });
const noStore = textHeader("no-store, no-cache, must-revalidate, private");

/** The page shown for a link that was altered, cut short or no longer exists. */
const invalidLink: SuccessResponse = { description: "An HTML page: the link is not valid (altered, incomplete, or no longer existing).", contentType: html, headers: { "Cache-Control": noStore } };

/** One budget per client IP (IPv6 by /64) for all tracking routes. */
const tooManyRequests: SuccessResponse = {
  description: "An HTML page: too many requests from this client's network (TRACKING_RATE_LIMIT_PER_MINUTE per IP, IPv6 by /64, over all tracking routes).",
  contentType: html,
  headers: { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } }, "Cache-Control": noStore },
};

const failed: SuccessResponse = {
  description: "An HTML page: the request could not be processed (the database could not be reached); try again.",
  contentType: html,
  headers: { "Cache-Control": noStore },
};

/** routes/tracking.ts: the links in sent emails. No API key: recipients' mail clients call them. */
export const trackingOperations = defineOperations([
  {
    method: "get",
    path: "/t/o/:token",
    operationId: "trackOpen",
    tag: TAG,
    summary: "Open-tracking pixel",
    description:
      "Always the same 1x1 transparent GIF, whatever the token (its validity is never revealed), also over the client's rate limit: an image proxy would show a 429 as a broken image, so only the open is not recorded then. The first GET with a valid token records the open; a HEAD records nothing.",
    auth: false,
    envelopeErrors: false,
    params: { token: "The signed open token, optionally followed by `.gif`." },
    responses: { 200: { description: "The pixel.", contentType: "image/gif", headers: { "Cache-Control": noStore } } },
  },
  {
    method: "get",
    path: "/t/c/:token/:url",
    operationId: "trackClick",
    tag: TAG,
    summary: "Tracked link redirect",
    description:
      "Redirects to the destination signed into the link, only while its enrollment exists and the destination is one of the links of a template it was sent: never an open redirect, and not after its campaign is deleted. The first GET per enrollment records the click (`enrollment.clicked`); a HEAD (link checkers) is checked but not recorded. Anything altered or no longer valid is a 404 page without Location.",
    auth: false,
    envelopeErrors: false,
    params: { ...token, url: "The destination, as signed into the link." },
    responses: {
      302: {
        description: "To the destination. No body.",
        headers: {
          Location: { description: "The signed destination URL.", schema: { type: "string", format: "uri" } },
          "Cache-Control": noStore,
          "Referrer-Policy": textHeader("no-referrer"),
        },
      },
      404: invalidLink,
      429: tooManyRequests,
      500: failed,
    },
  },
  {
    method: "get",
    path: "/u/:token",
    operationId: "showUnsubscribePage",
    tag: TAG,
    summary: "Unsubscribe page",
    description:
      "Asks the recipient to confirm with a button that POSTs to the same URL, or says the address is already unsubscribed. A GET only asks: link scanners and prefetchers follow links, so only the POST unsubscribes. Links of a deleted campaign keep working.",
    auth: false,
    envelopeErrors: false,
    params: token,
    responses: {
      200: { description: "An HTML page: the confirmation form, or the address already unsubscribed.", contentType: html, headers: { "Cache-Control": noStore } },
      404: invalidLink,
      429: tooManyRequests,
      500: failed,
    },
  },
  {
    method: "post",
    path: "/u/:token",
    operationId: "unsubscribeOneClick",
    tag: TAG,
    summary: "Unsubscribe (one-click, RFC 8058)",
    description:
      "Unsubscribes the contact: its active enrollments in every campaign become unsubscribed, their steps not yet sent are cancelled, and one `enrollment.unsubscribed` is emitted per enrollment. The List-Unsubscribe-Post target: mail clients POST `List-Unsubscribe=One-Click` form-encoded, but any body and content type is accepted and the body is ignored. Repeating it is harmless.",
    auth: false,
    envelopeErrors: false,
    params: token,
    responses: {
      200: { description: "An HTML page: unsubscribed.", contentType: html, headers: { "Cache-Control": noStore } },
      404: invalidLink,
      429: tooManyRequests,
      500: failed,
    },
  },
]);
