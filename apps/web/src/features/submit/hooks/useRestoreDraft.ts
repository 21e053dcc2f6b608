import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useBatch } from '../../batch/index.ts';
import { takeDraft } from '../draft.ts';

/**
 * The batch page opening (../shared/spec/product-spec.md §2 route): a saved draft is read back into the order table
 * and cleared, so 返回修改 on /payment1 (or the browser's back button) brings the rows back.
 */
export function useRestoreDraft(customerHubId: number | undefined): void {
  const { message } = App.useApp();
  const { addWorks, clearWorks } = useBatch();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || customerHubId === undefined) return;
    done.current = true;
    const draft = takeDraft(customerHubId);
    if (!draft) return;
    clearWorks();
    addWorks(draft.fileList);
    if (draft.fileList.length > 0) void message.info({ content: `已恢复${draft.fileList.length}个作品`, key: 'draft-restored' });
  }, [addWorks, clearWorks, customerHubId, message]);
}
