import type { Response } from "express";

/**
 * Sends `value` as JSON like res.json (ETags are off app-wide), but hands Node
 * the body as a string, which it sends joined to the headers; res.json first
 * copies any body over 1,000 bytes into a Buffer. For the hottest reads. HEAD
 * answers get the headers only: Node drops the body.
 */
export function sendJson(res: Response, value: unknown): void {
  sendJsonText(res, JSON.stringify(value));
}

/** sendJson for a body that is JSON text already (made by the database: listCampaignPageJson). */
export function sendJsonText(res: Response, body: string): void {
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}
