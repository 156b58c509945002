import { startWebhookReceiver, type ReceiverAnswer } from "@outreach/testing";

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
  const receiver = await startWebhookReceiver({
    // a status without a pause is written at once, as this receiver always did
    immediate: true,
    answer: (request): ReceiverAnswer => {
      // a body that is not JSON is recorded with an empty id: a test that checks ids sees it
      const envelope = (request.body ?? {}) as { id?: unknown; data?: unknown };
      const id = typeof envelope.id === "string" ? envelope.id : "";
      const previous = seen.get(id) ?? 0;
      seen.set(id, previous + 1);
      const data = (envelope.data ?? {}) as Record<string, unknown>;
      const answer = answerFor(id, previous, data);
      arrivals.push({ id, data, at: request.at, answer });
      if (answer === "hang") return "hang";
      if (typeof answer === "number") return { status: answer };
      return { status: answer.status, delayMs: answer.delayMs };
    },
  });
  return {
    url: receiver.url,
    arrivals,
    get open() {
      return receiver.open;
    },
    get maxOpen() {
      return receiver.maxOpen;
    },
    close: () => receiver.close(),
  };
}
