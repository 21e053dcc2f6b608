import pLimit from 'p-limit';
import { AppError, notFound } from '../errors.ts';

/** Why a call about many items could not do one of them: the 4xx the one-item call would answer. */
export type ItemError = { status: number; code: string; message: string };

/**
 * `run` for each item of a call about many (checkFiles, parseItems), `atOnce` at a time, in the items' order:
 * its answer, or the 4xx AppError it raised as that item's error (anything else fails the call). A call none of
 * whose items the hub has (every one a 404) is itself a 404 with that message, as the one-item call answers,
 * rather than a 200 listing what it did not find.
 */
export async function perItem<T, R>(items: readonly T[], atOnce: number, run: (item: T) => Promise<R>): Promise<Array<{ answer: R } | { error: ItemError }>> {
  const results = await pLimit(atOnce).map(items, async (item): Promise<{ answer: R } | { error: ItemError }> => {
    try {
      return { answer: await run(item) };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return { error: { status: err.status, code: err.code, message: err.message } };
      throw err;
    }
  });
  const missing = results.filter((r): r is { error: ItemError } => 'error' in r && r.error.status === 404);
  if (missing.length === results.length && missing[0]) throw notFound(missing[0].error.message);
  return results;
}
