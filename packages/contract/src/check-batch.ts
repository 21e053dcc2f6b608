/**
 * POST /api/sales_order/checkFiles (issue #20 item 5): the file check of many works against one SKU in
 * one call, checked in parallel on the server; each work's result is what checkFile answers for it.
 */
import { z } from 'zod';
import { CheckFileAnswer, zId, zItemPath } from './api.ts';

/** Works per call: a page sends a batch of hundreds in calls of this many, for its progress bar. */
export const CHECK_FILES_MAX_WORKS = 100;

export const CheckFilesBody = z.object({
  propertyConfigId: zId,
  productId: zId,
  customerHubId: zId.optional(),
  makeWay: z.string().max(20).optional(),
  checkNumberOfPages: z.boolean().optional(),
  works: z.array(z.object({ filePath: zItemPath, workUuid: z.uuid().optional() })).min(1).max(CHECK_FILES_MAX_WORKS),
});
export type CheckFilesBody = z.infer<typeof CheckFilesBody>;

/** One work's result, in the order of the request: checkFile's answer, or why it could not be checked (as checkFile's 4xx says it). */
export const CheckFilesResult = z.union([
  z.object({ filePath: z.string(), workUuid: z.string().nullable(), answer: CheckFileAnswer }),
  z.object({ filePath: z.string(), workUuid: z.string().nullable(), error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }) }),
]);
export type CheckFilesResult = z.infer<typeof CheckFilesResult>;

export const CheckFilesAnswer = z.object({ state: z.literal(200), message: z.object({ results: z.array(CheckFilesResult) }) });
export type CheckFilesAnswer = z.infer<typeof CheckFilesAnswer>;
