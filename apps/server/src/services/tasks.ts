import type { TaskRunner } from '../jobs/runner.ts';
import { notFound } from '../errors.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ParseResult } from './parse.ts';

/** How often a held status request (waitMs) looks at its task. */
const WAIT_STEP_MS = 100;

/** The long-task answers of ../shared/spec/decisions.md §4: a queued task reads as running; another hub's task is not found. */
export function createTaskService(runner: TaskRunner) {
  return {
    /**
     * waitMs (an option of ours, not the spec's): the answer is held until the task is no longer running or
     * waitMs has passed, looked up every WAIT_STEP_MS, so a page that polls every LIMITS.taskPollMs with
     * waitMs = taskPollMs sends no more requests than the spec's poll and learns of the end at once.
     */
    async status(hubId: number, taskId: string, waitMs = 0) {
      const until = Date.now() + waitMs;
      let t = await runner.get(hubId, taskId);
      while (t && (t.status === 'queued' || t.status === 'running') && Date.now() + WAIT_STEP_MS <= until) {
        await sleep(WAIT_STEP_MS);
        t = await runner.get(hubId, taskId);
      }
      if (!t) throw notFound('任务不存在');
      const status = t.status === 'queued' ? 'running' : t.status;
      return {
        state: 200 as const,
        message: {
          status,
          progress: { done: t.progressDone, total: t.progressTotal },
          jsonContent: status === 'finished' ? (t.result as ParseResult) : null,
          error: t.error,
        },
      };
    },
  };
}
