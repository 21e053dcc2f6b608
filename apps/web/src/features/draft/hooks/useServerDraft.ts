import { App } from 'antd';
import { DRAFT_MSG } from '@portal/contract/batch-draft';
import { useEffect } from 'react';
import { useBatch } from '../../batch/index.ts';
import { draftSyncOf, type DraftStatus } from '../draft-sync.ts';

declare global {
  interface Window {
    /** The e2e build's view of the server draft (never in the production build). */
    __portalDraft?: () => DraftStatus;
  }
}

/**
 * The batch page opening: the login's open draft comes back onto the page (after the /payment1 draft
 * of ../shared/spec/product-spec.md §2, read by useRestoreDraft before this hook), and the batch is saved as it changes.
 */
export function useServerDraft(customerHubId: number | undefined): void {
  const { message, modal } = App.useApp();
  const batch = useBatch();
  useEffect(() => {
    if (customerHubId === undefined) return;
    const sync = draftSyncOf(batch);
    // Only the e2e build (and the dev server) holds this door: the production build folds it to nothing.
    if (import.meta.env.DEV || import.meta.env.MODE === 'e2e') window.__portalDraft = sync.status;
    void sync.restore(customerHubId, {
      customerHubId,
      notify: {
        success: (text) => void message.success(text),
        error: (text) => void message.error(text),
        warning: (text) => void message.warning({ content: text, key: 'server-draft' }),
      },
      info: (text) => void message.info({ content: text, key: 'server-draft-restored', duration: 6 }),
      // Stays until the page is loaded again: what this page shows is no longer what is saved.
      stale: (text) => void modal.warning({
        title: DRAFT_MSG.staleTitle, content: text, okText: '刷新页面', closable: false, keyboard: false, maskClosable: false,
        onOk: () => window.location.reload(),
      }),
    });
  }, [batch, customerHubId, message, modal]);
}
