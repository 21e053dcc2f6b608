import pLimit from 'p-limit';
import { yieldToMain } from './yield.ts';

/**
 * `fn` over `items`, at most `limit` running at once; the results in the items' order. With
 * `taskEach`, each next item is started from a task of its own (lib/yield.ts), so that the answers of
 * thousands of calls are not all handled in one task.
 */
export async function mapPooled<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, opts: { taskEach?: boolean } = {}): Promise<R[]> {
  return pLimit(limit).map(items, async (item) => {
    const result = await fn(item);
    if (opts.taskEach) await yieldToMain();
    return result;
  });
}
