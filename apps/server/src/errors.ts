import { SERVER_MSG } from '@portal/contract';

/**
 * An error meant for the customer: its message is shown as it is. `body` replaces the default answer
 * `{message, code}` where a call of the spec has its own shape (the upload's `{state, message}`).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string = SERVER_MSG.badRequest, code = 'bad-request', body?: Record<string, unknown>) =>
  new AppError(400, code, message, body);
export const unauthorized = (message: string = SERVER_MSG.unauthenticated) => new AppError(401, 'unauthenticated', message);
export const forbidden = (message: string = SERVER_MSG.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string = SERVER_MSG.notFound, code = 'not-found') => new AppError(404, code, message);
/** The code of a 404 whose product or SKU is not (or no longer) in the catalogue: a quote names it on its line. */
export const PRODUCT_GONE = 'product-not-found';
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooMany = (message: string) => new AppError(429, 'too-many-requests', message);
