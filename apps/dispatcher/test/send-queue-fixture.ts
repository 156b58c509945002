import { after, before } from "node:test";
import { createRedis, loadConfig, TypedQueue, type Config } from "@outreach/core";
import { createTestDatabase, uniqueQueuePrefix, type TestDatabase } from "@outreach/testing";

export interface SendQueueFixture {
  database: TestDatabase;
  config: Config;
  redis: ReturnType<typeof createRedis>;
  queue: TypedQueue<"send-email">;
}

/** A test file's own database, queue prefix and send-email queue, made before its tests and removed after. */
export function useSendQueueFixture(): SendQueueFixture {
  const fixture = {} as SendQueueFixture;
  before(async () => {
    fixture.database = await createTestDatabase();
    fixture.config = loadConfig("dispatcher", { DATABASE_URL: fixture.database.url, QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error" });
    fixture.redis = createRedis(fixture.config, "producer");
    fixture.queue = new TypedQueue("send-email", fixture.config, fixture.redis);
  });
  after(async () => {
    await fixture.queue?.close();
    await fixture.redis?.quit();
    await fixture.database?.drop();
  });
  return fixture;
}
