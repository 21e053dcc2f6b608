import type { FixedWork } from '@portal/contract/bulk-fix';
import { useCallback } from 'react';
import { useAccount } from '../../auth/index.ts';
import { useBatch } from '../../batch/index.ts';
import { takeFixedWorks } from '../after-fix.ts';
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
      // 预览 showed the originals after a fix when the rows kept their old files (the LAN check).
      await takeFixedWorks(batch, works, customerHubId);
      open?.onDone?.();
    },
    [batch, customerHubId, open],
  );
  if (!open) return null;
  return <BulkFixDialog targets={open.targets} onClose={closeBulkFix} onChanged={onChanged} />;
}
