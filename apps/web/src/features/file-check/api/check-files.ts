import type { CheckFilesAnswer, CheckFilesBody as CheckFilesBodySchema } from '@portal/contract/check-batch';
import { post } from '../../../lib/http.ts';

export type CheckFilesBody = (typeof CheckFilesBodySchema)['_zod']['input'];

/**
 * POST /api/sales_order/checkFiles: works against one SKU in one call; each result is what checkFile
 * answers for its work, or why it could not be checked. Silent, as checkFile: the flow reports.
 */
export async function checkFiles(body: CheckFilesBody, signal?: AbortSignal): Promise<CheckFilesAnswer> {
  const { data } = await post<CheckFilesAnswer>('/api/sales_order/checkFiles', body, { signal, silent: true });
  return data;
}
