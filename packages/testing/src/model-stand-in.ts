import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenOnLoopback } from "./free-port.js";

/** A request the stand-in received, with what was wrong with it (empty when it has the shape of a chat completion). */
export interface ModelStandInRequest {
  headers: IncomingHttpHeaders;
  body: any;
  problems: string[];
}

/**
 * How the stand-in answers a well-formed request: a label (as {"category": label}),
 * any content in choices[0].message.content, an HTTP status, a raw body, or one
 * of these after a delay.
 */
export type ModelStandInAnswer = { label: string } | { content: string } | { status: number } | { rawBody: string } | { delayMs: number; then: ModelStandInAnswer };

export interface ModelStandIn {
  /** the whole chat-completions URL */
  url: string;
  apiKey: string;
  /** every request received, in order */
  requests: ModelStandInRequest[];
  /** how the next requests are answered (replace it to change the stand-in's behaviour) */
  answer: (request: ModelStandInRequest) => ModelStandInAnswer;
  close(): Promise<void>;
}

/** What is wrong with a request for an OpenAI-compatible chat completion, if anything. */
function problemsOf(headers: IncomingHttpHeaders, body: any, apiKey: string): string[] {
  const problems: string[] = [];
  if (headers.authorization !== `Bearer ${apiKey}`) problems.push("authorization");
  if (!String(headers["content-type"] ?? "").startsWith("application/json")) problems.push("content-type");
  if (typeof body?.model !== "string" || body.model === "") problems.push("model");
  const messages = body?.messages;
  if (!Array.isArray(messages) || messages.length < 2 || messages.some((m: any) => typeof m?.role !== "string" || typeof m?.content !== "string")) problems.push("messages");
  else if (messages[0].role !== "system" || messages.at(-1).role !== "user") problems.push("roles");
  return problems;
}

const completion = (content: string) => JSON.stringify({ id: "chatcmpl-stand-in", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });

/** A local stand-in of an OpenAI-compatible chat-completions endpoint (REPLY_CLASSIFIER_URL) on 127.0.0.1. */
export async function startModelStandIn(options: { apiKey?: string; answer?: ModelStandIn["answer"] } = {}): Promise<ModelStandIn> {
  const apiKey = options.apiKey ?? "sk-stand-in-key";
  const timers = new Set<NodeJS.Timeout>();
  const standIn: Omit<ModelStandIn, "url" | "close"> = { apiKey, requests: [], answer: options.answer ?? (() => ({ label: "other" })) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: any = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = null;
      }
      const request: ModelStandInRequest = { headers: req.headers, body, problems: problemsOf(req.headers, body, apiKey) };
      standIn.requests.push(request);
      if (req.method !== "POST" || request.problems.length > 0) {
        res.writeHead(request.problems.includes("authorization") ? 401 : 400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: request.problems.join(", ") } }));
        return;
      }
      const send = (answer: ModelStandInAnswer): void => {
        if ("delayMs" in answer) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) send(answer.then);
          }, answer.delayMs);
          timers.add(timer);
        } else if ("status" in answer) res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "stand-in failure" } }));
        else if ("rawBody" in answer) res.writeHead(200, { "content-type": "application/json" }).end(answer.rawBody);
        else res.writeHead(200, { "content-type": "application/json" }).end(completion("label" in answer ? JSON.stringify({ category: answer.label }) : answer.content));
      };
      send(standIn.answer(request));
    });
  });
  const port = await listenOnLoopback(server);
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
