import { post } from '../../../lib/http.ts';

/**
 * POST /api/files/deleteFile {filePath}: removes a stored file or folder of the hub.
 * Resolves true only for the spec's success (HTTP 200/201 with state 200); a failure throws
 * or resolves false, and the caller shows 删除失败.
 */
export async function deleteStoredFile(filePath: string, options: { silent?: boolean } = {}): Promise<boolean> {
  const { data, status } = await post<{ state?: number }>('/api/files/deleteFile', { filePath }, { silent: options.silent });
  return (status === 200 || status === 201) && data?.state === 200;
}
