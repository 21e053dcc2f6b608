import { OpenDraftAnswer } from '@portal/contract/batch-draft';
import { get } from '../../../lib/http.ts';

/** GET /api/batch-drafts/open: the login's open batch draft, or null. */
export async function getOpenDraft(): Promise<OpenDraftAnswer['draft']> {
  const { data } = await get('/api/batch-drafts/open', { schema: OpenDraftAnswer, silent: true });
  return data.draft;
}
