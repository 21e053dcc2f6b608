/**
 * The bodies of the quote and order calls, built from the batch draft (../shared/spec/decisions.md §7). Only what the
 * server takes is sent: it re-checks and re-prices every work itself.
 */
import type { BatchOrderBody, OrderLocation, QuoteBody } from '@portal/contract/api';
import type { Toning } from '@portal/contract/enums';
import type { BatchDraft } from '../../submit/index.ts';

/** What 提交订单 confirms: the quote's total and its lines' amounts (api/quote.ts Quote). */
export interface ConfirmedQuote {
  totalAmount: number;
  lines: ReadonlyArray<{ uuid: string; amount: number | null }>;
}

type DraftRow = BatchDraft['fileList'][number] & {
  productId?: number | null;
  propertyConfigId?: number | null;
  toning?: Toning | null;
  customToning?: string | boolean | null;
  orderLocations?: readonly OrderLocation[] | null;
};

export type QuoteWork = (typeof QuoteBody)['_zod']['input']['works'][number];

const rowsOf = (draft: BatchDraft) => draft.fileList as DraftRow[];

export function quoteBodyOf(draft: BatchDraft): { works: QuoteWork[] } {
  return {
    works: rowsOf(draft).map((r) => ({
      uuid: r.uuid,
      articleName: r.articleName,
      quantity: r.quantity,
      productId: r.productId ?? 0,
      propertyConfigId: r.propertyConfigId ?? 0,
    })),
  };
}

/**
 * The order of the draft. With the quote the customer confirmed, its total and each line's amount go too: the server
 * places nothing when either is no longer what it would charge (409 price-changed).
 */
export function batchBodyOf(draft: BatchDraft, confirmed?: ConfirmedQuote): BatchOrderBody {
  const partial = draft.deliveryMethod === 'Partial';
  const amounts = new Map(confirmed?.lines.map((l) => [l.uuid, l.amount]));
  return {
    idempotencyKey: draft.idempotencyKey,
    deliveryMethod: draft.deliveryMethod,
    location: partial ? undefined : draft.location,
    ...(confirmed ? { expectedTotalAmount: confirmed.totalAmount } : {}),
    works: rowsOf(draft).map((r, i) => ({
      uuid: r.uuid,
      articleName: r.articleName,
      filePath: r.filePath,
      quantity: r.quantity,
      productId: r.productId ?? 0,
      propertyConfigId: r.propertyConfigId ?? 0,
      toning: r.toning ?? 'None',
      customToning: r.customToning ?? null,
      orderLocations: partial ? [...(r.orderLocations ?? (draft.orderLocations[i] ? [draft.orderLocations[i]] : []))] : undefined,
      expectedAmount: amounts.get(r.uuid) ?? undefined,
    })),
  };
}

/** The address a work of the draft goes to: its own (Partial) or the order's (Unified). */
export function locationOfWork(draft: BatchDraft, index: number): OrderLocation | undefined {
  if (draft.deliveryMethod === 'Unified') return draft.location;
  return rowsOf(draft)[index]?.orderLocations?.[0] ?? draft.orderLocations[index];
}
