import type { SortWorkFilesAnswer, SortWorkFilesBody as SortWorkFilesBodySchema } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

export type SortWorkFilesBody = (typeof SortWorkFilesBodySchema)['_zod']['input'];

export type { SortWorkFilesAnswer };

/**
 * POST /api/files/sortWorkFiles: keeps the work's files in the given order; a file left out leaves
 * the work. A PDF work is refused (4xx with PDF文件不支持排序操作), as is anything else the server
 * finds wrong: the caller shows the server's message.
 */
export async function sortWorkFiles(body: SortWorkFilesBody): Promise<SortWorkFilesAnswer> {
  const { data } = await post<SortWorkFilesAnswer>('/api/files/sortWorkFiles', body);
  return data;
}
