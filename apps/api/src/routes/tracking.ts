import { errorFields } from "@outreach/core";
import { Router, type Request, type Response } from "express";
import { isSentLink, readClickToken, readTrackingToken, recipientOfLink, recordClick, recordOpen, unsubscribeByEnrollment } from "@outreach/domain";
import { clientIp, clientIpBucket } from "../client-ip.js";
import type { ApiContext } from "../context.js";
import { checkRateLimit, type RateLimitPolicy } from "../middleware/rate-limit.js";

/** A 1x1 transparent GIF. */
export const TRACKING_PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const NO_STORE = "no-store, no-cache, must-revalidate, private";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendPage(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      "Cache-Control": NO_STORE,
      Pragma: "no-cache",
      "X-Robots-Tag": "noindex, nofollow",
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    })
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1.2rem;border-radius:4px;border:1px solid #888;background:#f3f3f3;cursor:pointer}</style>
</head><body>${body}</body></html>`,
    );
}

const sendPixel = (res: Response) => res.status(200).set({ "Cache-Control": NO_STORE, Pragma: "no-cache", Expires: "0" }).type("gif").send(TRACKING_PIXEL);
const invalidLink = (res: Response, what: "unsubscribe link" | "link" = "unsubscribe link") =>
  sendPage(res, 404, "Link not valid", `<h1>This link is not valid</h1><p>The ${what} is incomplete or no longer exists. Check that the whole link was copied from the email.</p>`);
const limited = (res: Response, retryMs: number) => {
  res.setHeader("Retry-After", String(Math.max(1, Math.ceil(retryMs / 1000))));
  sendPage(res, 429, "Too many requests", "<h1>Too many requests</h1><p>Too many requests came from your network. Please try again in a minute.</p>");
};
const failed = (res: Response) => sendPage(res, 500, "Something went wrong", "<h1>Something went wrong</h1><p>Your request could not be processed. Please try again in a moment.</p>");

/**
 * The links in sent emails: the open-tracking pixel and the one-click unsubscribe
 * (RFC 8058). No API key, and no body parser: mail clients POST
 * "List-Unsubscribe=One-Click" form-encoded, and the body is ignored.
 */
export function trackingRoutes(ctx: ApiContext): Router {
  const router = Router();
  // accepted under the current and every previous key: links already delivered keep working after a rotation
  const keyring = ctx.keyring;

  // One budget per client IP (IPv6 by /64) for all tracking routes: they need no key,
  // so this is what keeps one source from spending the database's connections.
  const policy: RateLimitPolicy = { name: "tracking", limit: ctx.config.trackingRateLimitPerMinute, windowSeconds: 60 };
  /** ms until this client may come back, or 0 when it is within its budget (also when Redis is down: fail open). */
  const overLimit = async (req: Request): Promise<number> => {
    const result = await checkRateLimit(ctx.redis, ctx.config, ctx.logger, policy, clientIpBucket(clientIp(req)));
    return result && !result.allowed ? Math.max(1, result.retryMs) : 0;
  };

  // Always the same pixel, whatever the token: its validity is never revealed. Over the
  // client's limit too: an image proxy shows a 429 as a broken image in the reader's
  // email, so the pixel answers as usual and only the open is not recorded.
  router.get("/t/o/:token", async (req, res) => {
    const enrollmentId = readTrackingToken("open", req.params.token.replace(/\.gif$/, ""), keyring);
    if (enrollmentId && req.method === "GET" && !(await overLimit(req))) {
      try {
        await recordOpen(ctx.db, enrollmentId);
      } catch (err) {
        ctx.logger.error("recording an open failed", { enrollmentId, ...errorFields(err) });
      }
    }
    sendPixel(res);
  });

  // A tracked link: the destination was signed with the enrollment when the email was made, and it
  // redirects only while that enrollment exists and the destination is one of the links of a
  // template it was sent (isSentLink): never an open redirect, not after its campaign is deleted.
  // Anything altered, or no longer valid, is a 404 without Location. The first GET per enrollment
  // is recorded; a HEAD (link checkers) is checked but not recorded. Over its limit a client gets
  // 429: the check needs the database.
  router.get("/t/c/:token/:url", async (req, res) => {
    const link = readClickToken(req.params.token, req.params.url, keyring);
    if (!link) return invalidLink(res, "link");
    const retryMs = await overLimit(req);
    if (retryMs) return limited(res, retryMs);
    try {
      if (!(await isSentLink(ctx.db, link.enrollmentId, link.url))) return invalidLink(res, "link");
    } catch (err) {
      ctx.logger.error("checking a click link failed", { enrollmentId: link.enrollmentId, ...errorFields(err) });
      return failed(res);
    }
    if (req.method === "GET") {
      try {
        await recordClick(ctx.db, link.enrollmentId, link.url);
      } catch (err) {
        ctx.logger.error("recording a click failed", { enrollmentId: link.enrollmentId, ...errorFields(err) });
      }
    }
    res.status(302).set({ Location: link.url, "Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow" }).end();
  });

  // A GET only asks: link scanners and prefetchers follow links, so only the POST unsubscribes.
  router.get("/u/:token", async (req, res) => {
    const retryMs = await overLimit(req);
    if (retryMs) return limited(res, retryMs);
    const enrollmentId = readTrackingToken("unsubscribe", req.params.token, keyring);
    if (!enrollmentId) return invalidLink(res);
    try {
      // the enrollment's contact, or the kept link's once the campaign was deleted
      const contactId = await recipientOfLink(ctx.db, enrollmentId);
      const contact = contactId ? await ctx.db.contact.findUnique({ where: { id: contactId }, select: { email: true, unsubscribedAt: true } }) : null;
      if (!contact) return invalidLink(res);
      const email = escapeHtml(contact.email);
      if (contact.unsubscribedAt) {
        return sendPage(res, 200, "Unsubscribed", `<h1>You have been unsubscribed</h1><p><strong>${email}</strong> will not receive further emails from this sender.</p>`);
      }
      sendPage(
        res,
        200,
        "Unsubscribe",
        `<h1>Unsubscribe</h1><p>Unsubscribe <strong>${email}</strong> from these emails?</p>
<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click">Unsubscribe</button></form>`,
      );
    } catch (err) {
      ctx.logger.error("showing the unsubscribe page failed", { enrollmentId, ...errorFields(err) });
      failed(res);
    }
  });

  // RFC 8058 one-click: any body and content type, ignored.
  router.post("/u/:token", async (req, res) => {
    const retryMs = await overLimit(req);
    if (retryMs) return limited(res, retryMs);
    const enrollmentId = readTrackingToken("unsubscribe", req.params.token, keyring);
    if (!enrollmentId) return invalidLink(res);
    try {
      const result = await unsubscribeByEnrollment(ctx.db, enrollmentId);
      if (!result) return invalidLink(res);
      if (result.contactUnsubscribed || result.enrollmentIds.length > 0) {
        ctx.logger.info("contact unsubscribed", { accountId: result.accountId, contactId: result.contactId, enrollments: result.enrollmentIds.length });
      }
      sendPage(res, 200, "Unsubscribed", `<h1>You have been unsubscribed</h1><p><strong>${escapeHtml(result.email)}</strong> will not receive further emails from this sender.</p>`);
    } catch (err) {
      ctx.logger.error("unsubscribing failed", { enrollmentId, ...errorFields(err) });
      failed(res);
    }
  });

  return router;
}
