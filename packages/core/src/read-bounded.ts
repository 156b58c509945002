/** An HTTP answer longer than the reader's limit: the reader stopped reading it. */
export class AnswerTooLargeError extends Error {}

/** The body of a fetch Response as text, read no further than `limit` bytes (AnswerTooLargeError past it). */
export async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(`the answer is over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
