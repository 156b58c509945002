import { createRequire } from "node:module";
import { dirname } from "node:path";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { RequestHandler, Router } from "express";
import { QUEUE_NAMES, TypedQueue, type Config, type Logger, type QueueName, errorFields, ignoreFailure, type RedisClient } from "@outreach/core";
import { discoverQueues, type QueueDiscoveryOptions } from "./queue-discovery.js";

/** Where the board is served (on the metrics listener). */
export const QUEUE_BOARD_PATH = "/admin/queues";

/** How long a discovery of the queues is reused before Redis is asked again. */
const REDISCOVER_MS = 5_000;

/** The directory of bull-board's UI (its views and static files are read from disk, also by a bundled api). */
export function bullBoardUiPath(): string {
  return dirname(createRequire(import.meta.url).resolve("@bull-board/ui/package.json"));
}

/** bull-board's page links web fonts from a third party: left out, so an operator's browser reaches this origin only (the page falls back to system fonts). */
const withoutWebFonts: RequestHandler = (_req, res, next) => {
  const render = res.render.bind(res);
  res.render = ((view: string, options?: object) =>
    render(view, options ?? {}, (err: Error | null, html?: string) => (err ? next(err) : res.send((html ?? "").replace(/<link[^>]*fonts\.googleapis\.com[^>]*>/g, ""))))) as typeof res.render;
  next();
};

/**
 * bull-board over every queue that exists (the catalog's and each sender's
 * send-email shard), rediscovered at most every 5 s when the board is used.
 * Read-only: the durable state of a send is its step_sends row, so retrying,
 * removing or adding jobs here would do nothing useful (the feeder and its
 * sweeps already requeue what a lost job held) and pausing or emptying a
 * queue would stop other accounts' sends. Operators act through `pnpm ops`
 * and the API (pause a campaign, suspend an account).
 */
export class QueueBoard {
  private readonly adapter = new ExpressAdapter();
  private readonly queues = new Map<string, TypedQueue<QueueName>>();
  private readonly board: ReturnType<typeof createBullBoard>;
  private discovered: { at: number; done: Promise<void> } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    private readonly logger: Logger,
    uiBasePath: string,
    private readonly discovery: QueueDiscoveryOptions = {},
  ) {
    this.adapter.setBasePath(QUEUE_BOARD_PATH);
    this.board = createBullBoard({
      queues: [],
      serverAdapter: this.adapter,
      options: {
        uiBasePath,
        uiConfig: {
          boardTitle: "Outreach queues",
          hideDocsLink: true,
          miscLinks: [{ text: "Schedule (JSON)", url: "/admin/schedule" }],
        },
      },
    });
  }

  /** Rediscovers the queues (at most every 5 s, one discovery at a time), then serves the board. */
  readonly router: RequestHandler[] = [
    async (_req, _res, next) => {
      await this.refresh();
      next();
    },
    withoutWebFonts,
    (req, res, next) => (this.adapter.getRouter() as Router)(req, res, next),
  ];

  /** Brings the board's queues in line with what exists; a failed discovery keeps the last list. */
  async refresh(now = Date.now()): Promise<void> {
    if (!this.discovered || now - this.discovered.at > REDISCOVER_MS) {
      const done = this.rediscover().catch((err) => {
        this.logger.warn("could not discover the queues for the operator board", { ...errorFields(err) });
        if (this.discovered?.done === done) this.discovered = undefined;
      });
      this.discovered = { at: now, done };
    }
    await this.discovered.done;
  }

  /** The BullMQ names on the board, in its order. */
  names(): string[] {
    return [...this.queues.keys()];
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
  }

  private async rediscover(): Promise<void> {
    const { catalog, senders } = await discoverQueues(this.redis, this.config, this.discovery);
    const wanted = new Map<string, () => TypedQueue<QueueName>>();
    for (const name of catalog) wanted.set(name, () => new TypedQueue(name as QueueName, this.config, this.redis));
    for (const name of senders) {
      const shard = name.slice(`${QUEUE_NAMES.sendEmail}.`.length);
      wanted.set(name, () => new TypedQueue("send-email", this.config, this.redis, shard));
    }
    for (const [name, queue] of this.queues) {
      if (wanted.has(name)) continue;
      this.queues.delete(name);
      await queue.close().catch(ignoreFailure(this.logger, "closing the board's handle on a queue gone", "the handle is dropped either way"));
    }
    for (const [name, make] of wanted) if (!this.queues.has(name)) this.queues.set(name, make());
    this.board.replaceQueues(
      [...wanted.keys()].map(
        (name) =>
          new BullMQAdapter(this.queues.get(name)!.queue, {
            readOnlyMode: true,
            allowRetries: false,
            description: name.includes(".") ? "sends routed to one sender process (its inboxes' SMTP sessions)" : "",
          }),
      ),
    );
  }
}
