import { z } from 'zod';
import { zId } from './api.ts';
import { Toning } from './enums.ts';

// --- 推荐产品 (issue #20 item 3): the products and SKUs a work's files fit as they are.

export const SuggestProductsBody = z.object({
  customerHubId: zId.optional(),
  /** Works of the caller's hub; another hub's work is not found (404). */
  workUuids: z.array(z.uuid()).min(1).max(500),
  /** Suggestions per work, best first. */
  limit: z.coerce.number().int().min(1).max(20).default(5),
});

export const ProductSuggestion = z.object({
  productId: z.number().int(),
  productNumber: z.string(),
  productName: z.string(),
  propertyConfigId: z.number().int(),
  sku: z.string(),
  skuNumber: z.string(),
  toning: Toning,
  customToning: z.boolean(),
  /** exact: every file within a tenth of its tolerance of the size; tolerance: within the tolerance. */
  fit: z.enum(['exact', 'tolerance']),
  /** The largest share of its tolerance a file uses, 0–1. */
  sizeMiss: z.number(),
  /** Files that fit only turned (automatic orientation). */
  swapped: z.number().int(),
  resolutionWarnings: z.number().int(),
  dpiUnstated: z.number().int(),
  pageCount: z.number().int(),
  components: z.array(z.object({ componentId: z.number().int(), componentName: z.string(), width: z.number(), height: z.number(), count: z.number().int() })),
  /** Other SKUs of the product that the files fit as well. */
  otherPropertyConfigIds: z.array(z.number().int()),
});
export type ProductSuggestion = z.infer<typeof ProductSuggestion>;

export const SuggestProductsAnswer = z.object({
  works: z.array(z.object({ workUuid: z.string(), suggestions: z.array(ProductSuggestion) })),
});
export type SuggestProductsAnswer = z.infer<typeof SuggestProductsAnswer>;
