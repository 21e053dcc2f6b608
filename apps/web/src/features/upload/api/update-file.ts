import { ApiError, postFormWithProgress } from '../../../lib/http.ts';
import type { ChunkAnswer } from '@portal/contract/api';

/** The fields of one chunk (../shared/spec/decisions.md §3), sent in this order before the part `file`. */
export interface ChunkFields {
  identifier: string;
  /** 1-based. */
  chunkIndex: number;
  chunkTotal: number;
  /** Bytes of the whole file. */
  size: number;
  /** Relative path as picked: `photo.jpg` or `Book1/p01.jpg`. */
  filePath: string;
  ext: string;
  fileNum: number;
  fileIndex: number;
  index: number;
  acceptFolder: boolean;
  /** The upload batch: one per pick or drop. */
  folderId: string;
}

/**
 * POST /api/files/updateFile: one chunk. Resolves with the answer (message.status 300 when this
 * chunk completed the file); a refusal (4xx, {state: 400, message: {error}}) throws an ApiError
 * carrying the server's text. Silent: the uploader decides what to retry and what to show.
 * `onProgress` hears how many of the chunk's bytes have been sent (the request body's progress,
 * scaled to the chunk: the fields before it are a few hundred bytes).
 */
export async function sendChunk(
  fields: ChunkFields,
  chunk: Blob,
  fileName: string,
  signal?: AbortSignal,
  onProgress?: (chunkBytesSent: number) => void,
): Promise<ChunkAnswer> {
  const form = new FormData();
  form.append('identifier', fields.identifier);
  form.append('chunkIndex', String(fields.chunkIndex));
  form.append('chunkTotal', String(fields.chunkTotal));
  form.append('size', String(fields.size));
  form.append('filePath', fields.filePath);
  form.append('ext', fields.ext);
  form.append('fileNum', String(fields.fileNum));
  form.append('fileIndex', String(fields.fileIndex));
  form.append('index', String(fields.index));
  form.append('acceptFolder', String(fields.acceptFolder));
  form.append('fetchMeta', 'true');
  form.append('folderId', fields.folderId);
  form.append('file', chunk, fileName);
  const onUploadProgress = onProgress
    ? (loaded: number, total: number) => onProgress(total > 0 ? Math.min(chunk.size, Math.round((chunk.size * loaded) / total)) : 0)
    : undefined;
  const { data, status, headers } = await postFormWithProgress<ChunkAnswer>('/api/files/updateFile', form, { signal, silent: true, onUploadProgress });
  const message = (data as { message?: { status?: unknown; error?: unknown } } | undefined)?.message;
  if (data?.state !== 200 || (message?.status !== 200 && message?.status !== 300)) {
    const text = typeof message?.error === 'string' ? message.error : '上传失败';
    throw new ApiError(status === 200 ? 400 : status, text, data, headers);
  }
  return data;
}
