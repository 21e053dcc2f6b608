import { ProductionLinkAnswer } from '@portal/contract/admin-production';
import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { errorMessage, get } from '../../../lib/http.ts';

export type Selection = { salesOrderNumber: string } | { batchId: number } | { day: string };

/** GET /api/admin/production/link: the orders a selection holds and a signed link to their zip. */
export async function getProductionLink(sel: Selection) {
  return (await get('/api/admin/production/link', { query: sel, schema: ProductionLinkAnswer })).data;
}

export function useProductionLink() {
  return useMutation({ mutationFn: getProductionLink });
}

/**
 * Downloads the production zip of a selection: the operator's call answers a signed link (a download sends no token),
 * which the browser then downloads as it streams. `onDone` hears the orders it held.
 */
export function useProductionDownload(onDone?: (answer: ProductionLinkAnswer) => void) {
  const { message } = App.useApp();
  const link = useProductionLink();
  const download = (sel: Selection) => link.mutate(sel, {
    onSuccess: (answer) => {
      onDone?.(answer);
      const a = document.createElement('a');
      a.href = answer.url;
      a.download = answer.fileName;
      document.body.append(a);
      a.click();
      a.remove();
    },
    onError: (e) => void message.error(errorMessage(e)),
  });
  return { download, pending: link.isPending };
}
