import type { Request } from "express";
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { TextDecoder } from "node:util";
import zlib from "node:zlib";
import { bodyError } from "./middleware/json-body.js";

class BodyReadError extends Error {
  constructor(readonly type: string) {
    super(type);
  }
}

function decompressed(req: Request): Readable {
  const encoding = (req.get("content-encoding") ?? "identity").toLowerCase();
  switch (encoding) {
    case "identity":
      return req;
    case "gzip":
      return req.pipe(zlib.createGunzip());
    case "deflate":
      return req.pipe(zlib.createInflate());
    case "br":
      return req.pipe(zlib.createBrotliDecompress());
    default:
      throw new BodyReadError("encoding.unsupported");
  }
}

function decoder(req: Request): TextDecoder {
  const charset = (/;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get("content-type") ?? "")?.[1] ?? "utf-8").toLowerCase();
  if (!charset.startsWith("utf-")) throw new BodyReadError("charset.unsupported");
  try {
    return new TextDecoder(charset); // invalid sequences become U+FFFD, a byte order mark is dropped
  } catch {
    throw new BodyReadError("charset.unsupported");
  }
}

/**
 * Reads off what is left of a request we stopped reading, so the client gets to read
 * our answer; a client that sends more than `allowance` bytes more is cut off.
 */
async function drain(req: Request, stream: Readable, allowance: number): Promise<void> {
  if (stream !== req) {
    req.unpipe(stream as unknown as Writable);
    stream.destroy();
  }
  if (req.complete || req.destroyed) return;
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > allowance) req.destroy();
  });
  req.resume();
  // an "error" on the request rejects once(): the body is being thrown away and the answer is already decided
  await Promise.race([once(req, "end"), once(req, "close")]).catch(() => undefined);
}

/**
 * Streams a request body as text to `consume`, chunk by chunk, never holding it
 * whole: the bytes after Content-Encoding are decoded with the charset of the
 * Content-Type (UTF-8 by default) and capped at `limit` bytes. `consume` may
 * return a promise; reading waits for it (backpressure). As with express.json,
 * any failure, `consume`'s included, is answered only after the rest of the
 * body has been read off, and reading problems become the bad_request envelope.
 * Returns false when the request has no body at all.
 */
export async function readStreamedBody(req: Request, limit: { bytes: number; label: string }, consume: (text: string) => void | Promise<void>): Promise<boolean> {
  const hasBody = req.get("transfer-encoding") !== undefined || req.get("content-length") !== undefined;
  if (!hasBody) return false;
  let stream: Readable = req;
  let consuming = false;
  const feed = async (text: string) => {
    consuming = true;
    await consume(text);
    consuming = false;
  };
  try {
    if (Number(req.get("content-length") ?? 0) > limit.bytes && (req.get("content-encoding") ?? "identity").toLowerCase() === "identity") {
      throw new BodyReadError("entity.too.large");
    }
    const text = decoder(req);
    stream = decompressed(req);
    let received = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limit.bytes) throw new BodyReadError("entity.too.large");
      const decoded = text.decode(chunk, { stream: true });
      if (decoded) await feed(decoded);
    }
    const rest = text.decode();
    if (rest) await feed(rest);
    return true;
  } catch (err) {
    // a client may send up to about three times the limit before it is cut off instead of answered
    await drain(req, stream, 2 * limit.bytes);
    if (consuming) throw err;
    // a client that went away, or bytes that do not inflate
    throw bodyError(err instanceof BodyReadError ? err.type : undefined, limit.label);
  }
}
