import { ProductionLinkAnswer } from '@portal/contract/admin-production';
import { useMutation } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

export type Selection = { salesOrderNumber: string } | { batchId: number } | { day: string };

/** GET /api/admin/production/link: the orders a selection holds and a signed link to their zip. */
export async function getProductionLink(sel: Selection) {
  return (await get('/api/admin/production/link', { query: sel, schema: ProductionLinkAnswer })).data;
}

export function useProductionLink() {
  return useMutation({ mutationFn: getProductionLink });
}
