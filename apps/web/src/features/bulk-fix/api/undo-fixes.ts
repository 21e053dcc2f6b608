import type { BulkFixUndoAnswer, BulkFixUndoBody } from '@portal/contract/bulk-fix';
import { post } from '../../../lib/http.ts';

/** POST /api/bulk-fix/undo: undoes fixes by id, or every fix of a task; the works are checked again on the server. */
export async function undoFixes(body: BulkFixUndoBody): Promise<BulkFixUndoAnswer['message']> {
  const { data } = await post<BulkFixUndoAnswer>('/api/bulk-fix/undo', body);
  return data.message;
}
