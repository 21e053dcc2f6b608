import type { BulkFixBody, BulkFixPreviewAnswer } from '@portal/contract/bulk-fix';
import { post } from '../../../lib/http.ts';

/** POST /api/bulk-fix/preview: what each fix would do, with a few before/after samples. Changes nothing. */
export async function previewFixes(body: BulkFixBody): Promise<BulkFixPreviewAnswer['message']> {
  const { data } = await post<BulkFixPreviewAnswer>('/api/bulk-fix/preview', body);
  return data.message;
}
