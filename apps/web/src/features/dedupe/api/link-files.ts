import { LinkFilesAnswer } from '@portal/contract/dedupe';
import type { ChunkDone } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

/**
 * POST /api/files/linkFiles: linkFile for many files in one call. Answers, in the order of `files`, the
 * stored file or null when its bytes must be sent after all.
 */
export async function linkFiles(files: ReadonlyArray<{ folderId: string; filePath: string; size: number; sha256: string }>): Promise<Array<ChunkDone | null>> {
  const { data } = await post('/api/files/linkFiles', { files }, { schema: LinkFilesAnswer, silent: true });
  return data.results.map((r) => (r.linked ? r.message : null));
}
