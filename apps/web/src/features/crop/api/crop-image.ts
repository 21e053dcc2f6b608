import type { CropAnswer as CropAnswerSchema, CropBody as CropBodySchema } from '@portal/contract/api';
import { isApiError, post } from '../../../lib/http.ts';

export type CropBody = (typeof CropBodySchema)['_zod']['output'];
export type CropResult = (typeof CropAnswerSchema)['_zod']['output']['data'];

/** Thrown when the server answered without `success` (or refused): the dialog shows 裁切失败. */
export class CropFailed extends Error {
  override readonly name = 'CropFailed';
}

/**
 * POST /api/files/cropImg: turns the image (as displayed) clockwise by `rotation`, then cuts the
 * rectangle given in pixels of the image shown at `scale` percent. Network failures and 5xx are
 * toasted by the HTTP client; a refusal or an answer without `success` throws CropFailed with the
 * server's reason, when it gave one.
 */
export async function cropImage(body: CropBody): Promise<CropResult> {
  let answer: { success?: boolean; data?: CropResult; message?: string };
  try {
    ({ data: answer } = await post<typeof answer>('/api/files/cropImg', body));
  } catch (error) {
    // 4xx: the server refused this crop and said why; anything else was already toasted.
    if (isApiError(error) && error.status >= 400 && error.status < 500) throw new CropFailed(error.message);
    throw error;
  }
  if (!answer?.success || !answer.data) throw new CropFailed(answer?.message ?? '');
  return answer.data;
}
