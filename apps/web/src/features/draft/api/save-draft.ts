import { SavedDraftAnswer, type BatchDraftDocument } from '@portal/contract/batch-draft';
import { post, request } from '../../../lib/http.ts';

/** POST /api/batch-drafts: opens the login's draft (409 when one is open already). */
export async function createDraft(document: BatchDraftDocument): Promise<SavedDraftAnswer> {
  const { data } = await post('/api/batch-drafts', { document }, { schema: SavedDraftAnswer, silent: true });
  return data;
}

/** PUT /api/batch-drafts/{id}: saves over `version` (409 when the draft changed elsewhere or was closed; 413 when too large). */
export async function saveDraft(id: number, version: number, document: BatchDraftDocument): Promise<SavedDraftAnswer> {
  const { data } = await request('PUT', `/api/batch-drafts/${id}`, {
    body: JSON.stringify({ version, document }),
    contentType: 'application/json',
    schema: SavedDraftAnswer,
    silent: true,
  });
  return data;
}
