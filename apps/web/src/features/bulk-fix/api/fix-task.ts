import type { BulkFixTaskAnswer } from '@portal/contract/bulk-fix';
import { get } from '../../../lib/http.ts';

/** GET /api/bulk-fix/tasks/{taskId}: progress, and when finished each file's fix and each work's state. */
export async function fixTask(taskId: string): Promise<BulkFixTaskAnswer['message']> {
  const { data } = await get<BulkFixTaskAnswer>(`/api/bulk-fix/tasks/${encodeURIComponent(taskId)}`);
  return data.message;
}
