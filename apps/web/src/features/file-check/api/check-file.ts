import type { CheckFileAnswer, CheckFileBody as CheckFileBodySchema } from '@portal/contract/api';
import { post } from '../../../lib/http.ts';

export type CheckFileBody = (typeof CheckFileBodySchema)['_zod']['input'];
export type { CheckFileAnswer };
/** The answer's message: the passing shape (state 200) or the message wrapper of a failure (state 400). */
export type CheckMessage = CheckFileAnswer['message'];

/**
 * POST /api/sales_order/checkFile: a failing check is an answer (HTTP 200 with state 400), not an
 * error; a thrown ApiError means the check could not run (network, server, a work that is gone).
 * Silent: the file check turns failures into entries and one summary toast.
 */
export async function checkFile(body: CheckFileBody, signal?: AbortSignal): Promise<CheckFileAnswer> {
  const { data } = await post<CheckFileAnswer>('/api/sales_order/checkFile', body, { signal, silent: true });
  return data;
}
