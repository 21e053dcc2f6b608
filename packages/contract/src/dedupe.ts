import { z } from 'zod';
import { ChunkDone } from './api.ts';
import { MSG } from './messages.ts';

// --- Bytes the shop already has are not sent (issue #21 item 2).

/** A sha256 in lower-case hex, as the browser's hash-wasm and the server's OpenSSL write it. */
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, '文件指纹不正确');

/** Which of these hashes the caller's hub stores. Only the caller's hub is searched. */
export const KnownHashesBody = z.object({ hashes: z.array(Sha256).max(10000) });
/** The hashes of the request that the hub stores; any other (unknown, or another hub's) is simply absent. */
export const KnownHashesAnswer = z.object({ known: z.array(Sha256) });

/**
 * Stores a file of a batch from bytes the hub already has: the upload's folderId and relative path (as a
 * chunk names them), the file's size and its sha256.
 */
export const LinkFileBody = z.object({
  folderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '上传参数folderId不正确'),
  filePath: z.string().min(1).max(1024),
  size: z.number().int().positive(),
  sha256: Sha256,
});
/** linked: the file is stored, answered as the chunk that completes an upload; unknown: send the bytes. */
export const LinkFileAnswer = z.discriminatedUnion('linked', [
  z.object({ linked: z.literal(true), state: z.literal(200), message: ChunkDone }),
  z.object({ linked: z.literal(false) }),
]);
export type LinkFileAnswer = z.infer<typeof LinkFileAnswer>;

/** Files one POST /api/files/linkFiles may name. */
export const LINK_FILES_MAX = 500;
/**
 * Many files of batches stored from bytes the hub already has, in one call (a re-picked folder): each
 * item as LinkFileBody; a (folderId, filePath) named twice is refused, as is a bad path of any item
 * (nothing is linked then).
 */
export const LinkFilesBody = z.object({
  files: z.array(LinkFileBody)
    .min(1, '请至少提供一个文件')
    .max(LINK_FILES_MAX, `一次最多关联${LINK_FILES_MAX}个文件`)
    .refine((files) => new Set(files.map((f) => `${f.folderId}\n${f.filePath}`)).size === files.length, MSG.linkFilesRepeated),
});
/** One answer per file of the request, in its order, each as LinkFileAnswer. */
export const LinkFilesAnswer = z.object({ results: z.array(LinkFileAnswer) });
export type LinkFilesAnswer = z.infer<typeof LinkFilesAnswer>;
