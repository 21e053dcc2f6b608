import type { FixedWork } from '@portal/contract/bulk-fix';
import { useCallback } from 'react';
import { useAccount } from '../../auth/index.ts';
import { useBatch } from '../../batch/index.ts';
import { checkFlowOf } from '../../file-check/index.ts';
import { closeBulkFix, useBulkFixDialog } from '../dialog.ts';
import { BulkFixDialog } from './BulkFixDialog.tsx';

/**
 * The bulk-fix dialog, rendered once by the page. After fixes (or their undo) the works were checked
 * again on the server; the page's rows and check entries take those answers through the check flow.
 */
export function BulkFixHost() {
  const open = useBulkFixDialog((s) => s.open);
  const batch = useBatch();
  const customerHubId = useAccount().data?.customerHubId;
  const onChanged = useCallback(
    async (works: readonly FixedWork[]) => {
      // The rows take the works' files as they are now (a fixed picture, or the original again): 预览, the draft
      // and the order send what will be printed (预览 showed the originals after a fix: the LAN check).
      const after = new Map(works.map((w) => [w.uuid, w.files]));
      batch.updateWorks((row) => {
        const files = after.get(row.uuid);
        return files ? { files, pageCount: files.reduce((n, f) => n + f.pages, 0) } : null;
      });
      const uuids = works.map((w) => w.uuid);
      if (customerHubId !== undefined && uuids.length) await checkFlowOf(batch).recheckWorks(uuids, customerHubId);
      open?.onDone?.();
    },
    [batch, customerHubId, open],
  );
  if (!open) return null;
  return <BulkFixDialog targets={open.targets} onClose={closeBulkFix} onChanged={onChanged} />;
}
