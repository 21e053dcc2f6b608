import { LinkFileAnswer } from '@portal/contract/dedupe';
import type { ChunkDone } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

/**
 * POST /api/files/linkFile: stores a file of the batch from bytes the hub already has. Answers what the
 * chunk completing an upload answers, or null when the bytes must be sent after all.
 */
export async function linkFile(body: { folderId: string; filePath: string; size: number; sha256: string }, signal?: AbortSignal): Promise<ChunkDone | null> {
  const { data } = await post('/api/files/linkFile', body, { schema: LinkFileAnswer, silent: true, signal });
  return data.linked ? data.message : null;
}
