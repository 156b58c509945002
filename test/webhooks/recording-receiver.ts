import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST a receiver got, with the envelope it carried. */
export interface Arrival {
  /** the envelope's id: the delivery's id */
  id: string;
  /** the envelope's data (the event's) */
  data: Record<string, unknown>;
  at: number;
  /** the answer it was given */
  answer: Answer;
}

/** A status at once, a status after a pause, or no answer at all. */
export type Answer = number | { status: number; delayMs: number } | "hang";

/**
 * A loopback webhook receiver that answers each request as `answerFor` says
 * (told how many times this delivery id came before, and the event's data),
 * and counts the requests it holds open, so a test can see how many a sender
 * had in flight.
 */
export interface RecordingReceiver {
  url: string;
  arrivals: Arrival[];
  /** requests whose answer has not ended yet */
  readonly open: number;
  /** the most requests open at once */
  readonly maxOpen: number;
  close(): Promise<void>;
}

export async function startRecordingReceiver(answerFor: (id: string, previousArrivals: number, data: Record<string, unknown>) => Answer = () => 200): Promise<RecordingReceiver> {
  const arrivals: Arrival[] = [];
  const seen = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.once("close", () => {
      open--;
      hanging.delete(res);
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let envelope: { id?: unknown; data?: unknown } = {};
      try {
        envelope = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // recorded with an empty id: a test that checks ids sees it
      }
      const id = typeof envelope.id === "string" ? envelope.id : "";
      const previous = seen.get(id) ?? 0;
      seen.set(id, previous + 1);
      const data = (envelope.data ?? {}) as Record<string, unknown>;
      const answer = answerFor(id, previous, data);
      arrivals.push({ id, data, at: Date.now(), answer });
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      const respond = (status: number) => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "text/plain" });
        res.end("ok");
      };
      if (typeof answer === "number") return respond(answer);
      hanging.add(res);
      setTimeout(() => respond(answer.status), answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
