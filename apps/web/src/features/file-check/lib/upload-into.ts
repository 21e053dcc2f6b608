/**
 * Uploads one file to a given stored path with the upload feature's chunk uploader (same chunks,
 * retries and answers as any upload), for 重新上传 and 添加文件 of the file detail dialog. A
 * stored path is `upload/<folderId>/<relative path>`: the upload call rebuilds it from those two.
 * The page's upload list does not show these files: progress stays with the caller.
 */
import { randomUuid } from '../../../lib/uuid.ts';
import type { ChunkDone } from '@portal/contract/api';
import { createUploader } from '../../upload/index.ts';

type Settle = { resolve: (done: ChunkDone) => void; reject: (error: Error) => void };
const pending = new Map<string, Settle>();
// These files are not in the page's upload list: their progress and state stay with the caller.
const untracked = { patchUploadFile: () => undefined, setUploadBytes: () => undefined, countRetryPause: () => undefined };
const uploader = createUploader(untracked, (id, outcome) => {
  const settle = pending.get(id);
  pending.delete(id);
  if (!settle) return;
  if (outcome.ok) settle.resolve(outcome.result);
  else settle.reject(new Error(outcome.error));
});

/** Where an upload can write: only below `upload/<folderId>/` (zip contents live elsewhere). */
export function uploadTargetOf(storedPath: string): { folderId: string; relativePath: string } | null {
  const parts = storedPath.split('/');
  if (parts[0] !== 'upload' || parts.length < 3 || !parts[1]) return null;
  return { folderId: parts[1], relativePath: parts.slice(2).join('/') };
}

export function uploadInto(file: Blob, storedPath: string): Promise<ChunkDone> {
  const target = uploadTargetOf(storedPath);
  if (!target) return Promise.reject(new Error('该文件不能重新上传'));
  const id = randomUuid();
  return new Promise<ChunkDone>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    uploader.add([{ id, file, relativePath: target.relativePath, batchId: target.folderId, fileNum: 1, fileIndex: 0, itemIndex: 0 }]);
  });
}

export const extensionOf = (path: string) => /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

/** What 重新上传 and 添加文件 take (../shared/spec/product-spec.md §2): .png, .jpg and .jpeg, whatever the stored file is. */
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg';
export const isAcceptedImage = (name: string) => ['png', 'jpg', 'jpeg'].includes(extensionOf(name));
