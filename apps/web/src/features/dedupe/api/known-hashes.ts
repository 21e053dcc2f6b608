import { KnownHashesAnswer } from '@portal/contract/dedupe';
import { post } from '../../../lib/http.ts';

/** POST /api/files/knownHashes: which of the hashes the caller's hub stores. Silent: on failure the files are simply sent. */
export async function knownHashes(hashes: readonly string[]): Promise<Set<string>> {
  const { data } = await post('/api/files/knownHashes', { hashes }, { schema: KnownHashesAnswer, silent: true });
  return new Set(data.known);
}
