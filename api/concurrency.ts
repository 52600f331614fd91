/**
 * Runs `task` over `items` with at most `limit` in flight, calling `onResult` as each settles
 * (in completion order), and resolves when all have. Both clients of a server without the fleet
 * extensions use it: they assemble per plant what a summary would answer at once, and must not
 * flood the server doing so.
 */
export async function forEachLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
  onResult: (result: PromiseSettledResult<R>, item: T, index: number) => void = () => {},
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      try {
        onResult({ status: 'fulfilled', value: await task(item, index) }, item, index);
      } catch (reason) {
        onResult({ status: 'rejected', reason }, item, index);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Requests a client keeps in flight per environment when it works plant by plant. */
export const PER_PLANT_CONCURRENCY = 6;
