/**
 * Long work on the main thread, done in slices so that the page keeps painting and answering
 * input: `yieldToMain` ends the current task and resumes in a new one (`scheduler.yield` where the
 * browser has it: the continuation goes first in the queue; a zero timeout elsewhere).
 */
type SchedulerWithYield = { yield?: () => Promise<void> };

export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Milliseconds of work a slice may take before it yields: well under a frame, far under a long task (50 ms). */
export const SLICE_MS = 12;
