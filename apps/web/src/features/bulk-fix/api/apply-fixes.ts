import type { BulkFixBody, BulkFixStarted } from '@portal/contract/bulk-fix';
import { post } from '../../../lib/http.ts';

/** POST /api/bulk-fix/apply: starts the fixes as a long task; answers its id. */
export async function applyFixes(body: BulkFixBody): Promise<string> {
  const { data } = await post<BulkFixStarted>('/api/bulk-fix/apply', body);
  return data.message.taskId;
}
