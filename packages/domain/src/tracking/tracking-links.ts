import type { KeySource } from "@outreach/core";
import { createClickToken, createTrackingToken } from "./tracking-token.js";

export interface TrackingLinks {
  /** the 1x1 open-tracking pixel for the HTML part */
  openPixelUrl: string;
  /** the one-click unsubscribe link (visible link and List-Unsubscribe) */
  unsubscribeUrl: string;
}

/**
 * The base of an email's tracking links: PUBLIC_BASE_URL, or with a custom
 * tracking domain (a CNAME to the service) that host in its place, keeping
 * PUBLIC_BASE_URL's scheme, port and path.
 */
export function trackingBase(publicBaseUrl: string, trackingDomain?: string | null): string {
  if (!trackingDomain) return publicBaseUrl.replace(/\/+$/, "");
  const url = new URL(publicBaseUrl);
  url.hostname = trackingDomain;
  return url.toString().replace(/\/+$/, "");
}

/** The links one enrollment's emails carry, under `base` (see trackingBase), made with the current key. */
export function trackingLinks(base: string, keys: KeySource, enrollmentId: string): TrackingLinks {
  const root = base.replace(/\/+$/, "");
  return {
    openPixelUrl: `${root}/t/o/${createTrackingToken("open", enrollmentId, keys)}.gif`,
    unsubscribeUrl: `${root}/u/${createTrackingToken("unsubscribe", enrollmentId, keys)}`,
  };
}

/** The click redirect of one link of one enrollment's email. */
export function clickTrackingUrl(base: string, keys: KeySource, enrollmentId: string, destination: string): string {
  const { token, encodedUrl } = createClickToken(enrollmentId, destination, keys);
  return `${base.replace(/\/+$/, "")}/t/c/${token}/${encodedUrl}`;
}

export interface ListUnsubscribeHeaders {
  "List-Unsubscribe": string;
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click";
}

// Characters left as they are in the mailto address; everything else is percent-encoded
// so the address cannot end the <...> or add a header parameter.
const percentEncode = (text: string) => text.replace(/[^A-Za-z0-9.!$&'*+/=^_`{|}~@-]/gu, (c) => [...Buffer.from(c, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""));

/**
 * RFC 2369 List-Unsubscribe with the RFC 8058 one-click marker. mailto (an address,
 * "mailto:" optional) is added after the HTTPS link when the sender can receive it.
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string, mailto?: string | null): ListUnsubscribeHeaders {
  if (/[\s<>]/.test(unsubscribeUrl)) throw new Error("the unsubscribe URL must not contain spaces or angle brackets");
  const links = [`<${unsubscribeUrl}>`];
  const address = mailto?.trim().replace(/^mailto:/i, "");
  if (address) links.push(`<mailto:${percentEncode(address)}?subject=unsubscribe>`);
  return { "List-Unsubscribe": links.join(", "), "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
