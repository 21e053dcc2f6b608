import type { TaskRunner } from '../jobs/runner.ts';
import { notFound } from '../errors.ts';
import type { ParseResult } from './parse.ts';

/** The long-task answers of ../shared/spec/decisions.md §4: a queued task reads as running; another hub's task is not found. */
export function createTaskService(runner: TaskRunner) {
  return {
    async status(hubId: number, taskId: string) {
      const t = await runner.get(hubId, taskId);
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
