import { createHash, webcrypto } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';

/** Files up to this size are hashed whole, off the main thread; larger ones are streamed through it. */
const WHOLE_BYTES = 32 * 1024 * 1024;

/**
 * The sha256 (hex) of a file's bytes: what the server records of every stored file, so that bytes a hub
 * already has can be linked instead of sent again (services/dedupe.ts). Keep in mind:
 * - it runs as each upload completes, so it competes with the uploads themselves: hashed on the main
 *   thread (createHash), it halved upload throughput to disk on PostgreSQL (0.86 → 0.44 of the bare sink,
 *   bench upload-throughput, quiet machine). WebCrypto's digest runs on libuv's thread pool instead;
 * - that digest takes the whole file in memory, so only files up to WHOLE_BYTES (photos, most PDFs) go
 *   that way; a larger file is read as a stream in the stream's default pieces (1 MB pieces raised the
 *   server's peak while uploading from 207 to 248 MB) and hashed on the main thread, a piece per task.
 */
export async function sha256File(abs: string): Promise<string> {
  if ((await stat(abs)).size <= WHOLE_BYTES) {
    const digest = await webcrypto.subtle.digest('SHA-256', await readFile(abs));
    return Buffer.from(digest).toString('hex');
  }
  const hash = createHash('sha256');
  for await (const piece of createReadStream(abs)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
