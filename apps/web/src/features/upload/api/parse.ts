import { get, post } from '../../../lib/http.ts';
import { ParseItemsAnswer, type LongTask, type LongTaskAnswer, type ParseAnswer, type ParseItemsResult } from '@portal/contract/api';

/**
 * GET /api/sales_order/parseOrderInfo4BatchUp: parses one uploaded top-level item
 * (`upload/<folderId>/<name>`): state 200 with the works, or 100 with a long task to poll.
 */
export async function parseUploadedItem(filePath: string, customerHubId: number, signal?: AbortSignal): Promise<ParseAnswer> {
  const { data } = await get<ParseAnswer>('/api/sales_order/parseOrderInfo4BatchUp', {
    query: { filePath, customerHubId },
    signal,
    silent: true,
  });
  return data;
}

/**
 * POST /api/sales_order/parseItems: parseUploadedItem for many items in one call (at most PARSE_ITEMS_MAX),
 * one result per item in the order given: its answer, or why it could not be parsed.
 */
export async function parseUploadedItems(filePaths: readonly string[], customerHubId: number): Promise<ParseItemsResult[]> {
  const { data } = await post('/api/sales_order/parseItems', { filePaths, customerHubId }, { schema: ParseItemsAnswer, silent: true });
  return data.message.results;
}

/** GET /api/long-time-tasks/{taskId}; waitMs: the server answers once the task is no longer running, or after waitMs. */
export async function getLongTask(taskId: string, signal?: AbortSignal, waitMs?: number): Promise<LongTask> {
  const { data } = await get<LongTaskAnswer>(`/api/long-time-tasks/${encodeURIComponent(taskId)}`, {
    ...(waitMs ? { query: { waitMs } } : {}),
    signal,
    silent: true,
  });
  return data.message;
}
