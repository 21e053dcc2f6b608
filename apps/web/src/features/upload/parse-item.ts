/**
 * Parses one uploaded item into works (../shared/spec/product-spec.md §4 Parsing, ../shared/spec/decisions.md §4).
 *
 * Keep in mind:
 * - state 200 carries the works; state 100 carries a long task, polled every LIMITS.taskPollMs
 *   until it is finished or failed; any other state is a failure. Each poll asks the server to hold
 *   its answer up to LIMITS.taskPollMs until the task ends (waitMs), and the first goes at once: the
 *   page hears of the end when it comes, not at the next tick, and a poll still starts at most once
 *   every LIMITS.taskPollMs;
 * - a poll that gets no answer or a 5xx is tried again, up to POLL_TOLERANCE times in a row: the
 *   task keeps running on the server, and a blip of the network must not lose a 2,000-file parse;
 * - a failure throws ParseFailure with the text to append to MSG.parseFailed.
 */
import { LIMITS } from '@portal/contract/enums';
import { errorMessage, isApiError } from '../../lib/http.ts';
import { getLongTask, parseUploadedItem } from './api/parse.ts';
import type { ParseResult } from '@portal/contract/api';

const POLL_TOLERANCE = 3;

export class ParseFailure extends Error {
  override readonly name = 'ParseFailure';
  /**
   * The server judged the file (a damaged zip, nothing in it to order): parsing it again gives the same answer, so
   * no 重新解析 is offered for it.
   */
  constructor(message: string, readonly lasting = false) {
    super(message);
  }
}

/** A refusal about the file itself: a 4xx other than the session's, a conflict's or the server's load. */
export const refusesTheFile = (status: number) => status >= 400 && status < 500 && ![401, 403, 408, 409, 429].includes(status);

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export async function parseItem(
  filePath: string,
  customerHubId: number,
  onProgress: (progress: { done: number; total: number }) => void,
  signal?: AbortSignal,
): Promise<ParseResult> {
  let answer;
  try {
    answer = await parseUploadedItem(filePath, customerHubId, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ParseFailure(errorMessage(error), isApiError(error) && refusesTheFile(error.status));
  }
  if (answer.state === 200) return answer.message;
  return pollParseTask(answer.message.taskId, onProgress, signal);
}

/** The works of a parse answered as a long task (state 100), once the task has finished. */
export async function pollParseTask(
  taskId: string,
  onProgress: (progress: { done: number; total: number }) => void,
  signal?: AbortSignal,
): Promise<ParseResult> {
  let misses = 0;
  let lastPollAt = -Infinity;
  for (;;) {
    await wait(Math.max(0, lastPollAt + LIMITS.taskPollMs - performance.now()), signal);
    lastPollAt = performance.now();
    let task;
    try {
      task = await getLongTask(taskId, signal, LIMITS.taskPollMs);
      misses = 0;
    } catch (error) {
      if (signal?.aborted) throw error;
      const transient = !isApiError(error) || error.status === 0 || error.status >= 500;
      if (transient && ++misses <= POLL_TOLERANCE) continue;
      throw new ParseFailure(errorMessage(error));
    }
    onProgress(task.progress);
    if (task.status === 'finished') {
      if (!task.jsonContent) throw new ParseFailure('');
      return task.jsonContent;
    }
    // A task fails for the file (the server retries what it can itself).
    if (task.status === 'failed') throw new ParseFailure(task.error ?? '', true);
  }
}
