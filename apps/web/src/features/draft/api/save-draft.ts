import { SavedDraftAnswer } from '@portal/contract/batch-draft';
import { request } from '../../../lib/http.ts';

/**
 * POST /api/batch-drafts: opens the login's draft (409 when one is open already). `body` is the
 * CreateDraftBody's JSON (`{document}`), built in slices by the draft sync (lib/json-in-slices.ts).
 */
export async function createDraft(body: Blob): Promise<SavedDraftAnswer> {
  const { data } = await request('POST', '/api/batch-drafts', { body, contentType: 'application/json', schema: SavedDraftAnswer, silent: true });
  return data;
}

/**
 * PUT /api/batch-drafts/{id}: `body` is the SaveDraftBody's JSON (`{version, document}`, saved over
 * that version: 409 when the draft changed elsewhere or was closed; 413 when too large).
 */
export async function saveDraft(id: number, body: Blob): Promise<SavedDraftAnswer> {
  const { data } = await request('PUT', `/api/batch-drafts/${id}`, { body, contentType: 'application/json', schema: SavedDraftAnswer, silent: true });
  return data;
}
