/**
 * The promise, or a rejection with `error()` once `ms` have passed; `onTimeout`
 * runs first (e.g. closing the connection that hangs, so the work under way
 * ends too). The timer is cleared as soon as the promise settles.
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number, error: () => Error, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onTimeout?.();
          reject(error());
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Times out a call to a dependency: "<what> did not answer within <ms> ms". */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return withDeadline(promise, ms, () => new Error(`${what} did not answer within ${ms} ms`));
}
