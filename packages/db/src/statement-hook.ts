import type { Db } from "./client.js";

/**
 * The client with `before` run ahead of every statement it executes through
 * the query modules' Prisma path (Executor.execute): for tests that race
 * another write against a statement of the code under test. Everything else
 * goes to the client as it is.
 */
export function withStatementHook(db: Db, before: (text: string) => Promise<void>): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "$executeRawUnsafe") return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Db["$executeRawUnsafe"]>) => {
        await before(String(args[0]));
        return target.$executeRawUnsafe(...args);
      };
    },
  });
}
