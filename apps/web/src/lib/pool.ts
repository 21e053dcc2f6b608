import { yieldToMain } from './yield.ts';

/**
 * `fn` over `items`, at most `limit` running at once; the results in the items' order. With
 * `taskEach`, each next item is started from a task of its own (lib/yield.ts), so that the answers of
 * thousands of calls are not all handled in one task.
 */
export async function mapPooled<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, opts: { taskEach?: boolean } = {}): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
      if (opts.taskEach) await yieldToMain();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
