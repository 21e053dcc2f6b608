import { request } from '../../../lib/http.ts';

/** DELETE /api/batch-drafts/{id}: 重置 (or an emptied batch) closes the draft. */
export async function discardDraft(id: number): Promise<void> {
  await request('DELETE', `/api/batch-drafts/${id}`, { silent: true });
}
