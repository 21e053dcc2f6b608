import { StoredChunksAnswer, type StoredChunksBody } from '@portal/contract/batch-draft';
import { post } from '../../../lib/http.ts';

/** POST /api/files/storedChunks: which chunks of these uploads the server holds (done, receiving with its chunks, or none). */
export async function storedChunks(uploads: StoredChunksBody['uploads']): Promise<StoredChunksAnswer['uploads']> {
  const { data } = await post('/api/files/storedChunks', { uploads }, { schema: StoredChunksAnswer, silent: true });
  return data.uploads;
}
