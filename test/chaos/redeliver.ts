import { setTimeout as delay } from "node:timers/promises";
import { createRedis, SenderRegistry } from "@outreach/core";
import type { Db } from "@outreach/db";
import { SendRouter } from "@outreach/domain";

/**
 * The queue delivers a job twice (BullMQ is at least once: a job can run again after a stall, a lost lock or a
 * Redis failover): the send-email jobs of up to `count` sends of the run that were already sent or are being
 * sent are added again through the real router, as new jobs of the same sends. The claim must refuse every one
 * of them; a claim that does not sends a step twice, which the duplicate check sees at the SMTP server.
 */
export async function redeliverSendJobs(db: Db, redisUrl: string, queuePrefix: string, accountIds: string[], count: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let sends: Array<{ id: string; accountId: string; credentialId: string | null }> = [];
  while (sends.length === 0 && Date.now() < deadline) {
    sends = await db.stepSend.findMany({
      where: { accountId: { in: accountIds }, state: { in: ["sent", "sending"] } },
      orderBy: { updatedAt: "desc" },
      take: count,
      select: { id: true, accountId: true, credentialId: true },
    });
    if (sends.length === 0) await delay(250);
  }
  if (sends.length === 0) return 0;
  const redis = createRedis({ redisUrl }, "producer");
  try {
    const config = { queuePrefix };
    const router = new SendRouter(redis, config, new SenderRegistry(redis, config));
    // a new release time: a new job id, so BullMQ runs it as the second delivery of the same send
    const releasedAt = new Date();
    await router.enqueue(sends.map((send) => ({ id: send.id, accountId: send.accountId, credentialId: send.credentialId, releasedAt })));
    return sends.length;
  } finally {
    redis.disconnect();
  }
}
