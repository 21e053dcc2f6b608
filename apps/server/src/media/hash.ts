import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** The piece a file is read in, into one buffer reused for the whole file. */
const PIECE_BYTES = 1024 * 1024;

/**
 * The sha256 (hex) of a file's bytes: what the server records of every stored file, so that bytes a hub
 * already has can be linked instead of sent again (services/dedupe.ts). Keep in mind:
 * - stored uploads are hashed once the uploads go quiet (services/content-hashes.ts): hashed as each upload
 *   completed, on the main thread, it halved upload throughput to disk on PostgreSQL (bench upload-throughput);
 * - the file is read into one reused buffer, a piece per task: reading each file whole (or in a stream's
 *   pieces) left a batch's bytes as garbage for the collector, and the server's peak memory rose by about
 *   25 MB while a 500 MB batch was hashed (bench/HISTORY.md 2026-11-29 15:00).
 */
export async function sha256File(abs: string): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(abs, 'r');
  try {
    const buffer = Buffer.allocUnsafe(PIECE_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, PIECE_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
