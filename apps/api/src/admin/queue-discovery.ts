import { keyspaceNodes, QUEUE_NAMES, queueOfBullKey, redisKeys, SenderRegistry, shardQueueName, type Config, type RedisClient } from "@outreach/core";

export interface QueueDiscoveryOptions {
  /** SCAN calls per discovery at most (COUNT 1000 each): bounds the work on Redis however many keys it holds */
  maxScanCalls?: number;
  /** sender queues listed at most */
  maxSenderQueues?: number;
}

export interface DiscoveredQueues {
  /** every queue of the catalog (QUEUE_NAMES) */
  catalog: string[];
  /** the per-sender shards of send-email (send-email.<sender id>), sorted */
  senders: string[];
}

/** A glob pattern that matches `text` literally (Redis MATCH: * ? [ ] \\ are special). */
const globLiteral = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * The queues that exist now: the catalog's, and the send-email shard of every
 * sender the registry holds (live, or expired with a queue not yet handed
 * back), plus any shard left in Redis without a sender (found by a bounded
 * SCAN for its meta key; a keyspace larger than the bound may hide such a
 * leftover until a later discovery, the registry's never).
 */
export async function discoverQueues(redis: RedisClient, config: Pick<Config, "queuePrefix">, options: QueueDiscoveryOptions = {}): Promise<DiscoveredQueues> {
  const maxScanCalls = options.maxScanCalls ?? 100;
  const maxSenderQueues = options.maxSenderQueues ?? 200;
  const senders = new Set((await new SenderRegistry(redis, config).members()).map((id) => shardQueueName(QUEUE_NAMES.sendEmail, id)));
  // BullMQ's meta key of every shard (named send-email.<sender id>, see shardQueueName): <prefix>:send-email.<sender id>:meta
  const head = redisKeys.bullQueue(config, `${QUEUE_NAMES.sendEmail}.`);
  // a cluster's masters each hold their own slots' keys: each is scanned, within one bound for them all
  let calls = 0;
  for (const node of keyspaceNodes(redis)) {
    let cursor = "0";
    do {
      if (calls >= maxScanCalls || senders.size >= maxSenderQueues) break;
      calls++;
      const [next, keys] = await node.scan(cursor, "MATCH", `${globLiteral(head)}*:meta`, "COUNT", 1000);
      for (const key of keys) {
        const queue = queueOfBullKey(config, key, "meta");
        if (queue) senders.add(queue);
      }
      cursor = next;
    } while (cursor !== "0");
  }
  return { catalog: Object.values(QUEUE_NAMES), senders: [...senders].sort().slice(0, maxSenderQueues) };
}
