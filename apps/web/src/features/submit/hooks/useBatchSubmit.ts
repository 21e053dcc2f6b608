import { MSG } from '@portal/contract/messages';
import { App } from 'antd';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage, isApiError } from '../../../lib/http.ts';
import { getDefaultAddress, locationOfCustomer, saveAddressEdits } from '../../address/index.ts';
import { selectHasProblems, selectIsUploading, useBatch, type WorkRow } from '../../batch/index.ts';
import { repeatFileNameCheck } from '../api/repeat-check.ts';
import { makeDraft, saveDraft } from '../draft.ts';
import { submitProblem, type SubmitWork } from '../lib/checks.ts';
import { deletedUuids, duplicateRowsOf, unresolvedCount, type DuplicateRow } from '../lib/duplicates.ts';

export interface BatchSubmitOptions {
  customerHubId: number | undefined;
  batchAddressParsing: boolean;
}

const TOAST_KEY = 'batch-submit';

/**
 * 批量下单 (../shared/spec/product-spec.md §5): the seven checks in their order, then the duplicate-name check and,
 * when it lists rows, the duplicate dialog; then the draft is saved and /payment1 opens. Everything
 * is read from the stores at the moment of the click, so the page does not re-render for it.
 */
export function useBatchSubmit({ customerHubId, batchAddressParsing }: BatchSubmitOptions) {
  const { message } = App.useApp();
  const { checkEntriesStore, removeWorks, updateWork, uploadStore, worksStore } = useBatch();
  const navigate = useNavigate();
  const [checking, setChecking] = useState(false);
  const [duplicates, setDuplicates] = useState<DuplicateRow[] | null>(null);

  const warn = useCallback((text: string) => void message.warning({ content: text, key: TOAST_KEY }), [message]);

  const proceed = useCallback(
    async (rows: readonly WorkRow[], customerHubId: number) => {
      let location = null;
      if (!batchAddressParsing) {
        // Shown on /payment1; when it cannot be read now the server still uses the default address.
        location = await getDefaultAddress(customerHubId)
          .then((found) => (found ? locationOfCustomer(found) : null))
          .catch(() => null);
      }
      const draft = makeDraft(rows, { customerHubId, deliveryMethod: batchAddressParsing ? 'Partial' : 'Unified', location });
      if (!saveDraft(draft)) {
        void message.error({ content: '订单草稿保存失败：浏览器存储空间不足', key: TOAST_KEY });
        return;
      }
      await navigate('/payment1');
    },
    [batchAddressParsing, message, navigate],
  );

  const submit = useCallback(async () => {
    if (checking || customerHubId === undefined) return;
    saveAddressEdits((uuid, location) => updateWork(uuid, { orderLocations: [location] }));
    const rows = worksStore.getState().rows;
    const entries = checkEntriesStore.getState();
    const problem = submitProblem(rows as readonly SubmitWork[], {
      hasProblemEntries: selectHasProblems(entries),
      inProgress: selectIsUploading(uploadStore.getState()) || entries.ids.some((id) => entries.byId[id]?.status === 'start'),
      batchAddressParsing,
    });
    if (problem) {
      warn(problem);
      return;
    }
    setChecking(true);
    try {
      const answer = await repeatFileNameCheck(
        customerHubId,
        rows.map((r) => r.fileName),
        rows.map((r) => r.uuid),
      );
      const listed = duplicateRowsOf(rows, answer);
      if (listed.length > 0) {
        setDuplicates(listed);
        return;
      }
      await proceed(rows, customerHubId);
    } catch (error) {
      if (!(isApiError(error) && error.reported)) void message.error({ content: errorMessage(error), key: TOAST_KEY });
    } finally {
      setChecking(false);
    }
  }, [batchAddressParsing, checkEntriesStore, checking, customerHubId, message, proceed, updateWork, uploadStore, warn, worksStore]);

  const confirmDuplicates = useCallback(
    async (resolved: DuplicateRow[]) => {
      if (unresolvedCount(resolved) > 0) {
        warn(MSG.unresolvedDuplicates);
        return;
      }
      removeWorks(deletedUuids(resolved));
      setDuplicates(null);
      const rows = worksStore.getState().rows;
      if (rows.length === 0) {
        warn(MSG.noFiles);
        return;
      }
      if (customerHubId === undefined) return;
      setChecking(true);
      try {
        await proceed(rows, customerHubId);
      } finally {
        setChecking(false);
      }
    },
    [customerHubId, proceed, removeWorks, warn, worksStore],
  );

  return {
    submit,
    checking,
    duplicateDialog: {
      rows: duplicates,
      onCancel: () => setDuplicates(null),
      onConfirm: (rows: DuplicateRow[]) => void confirmDuplicates(rows),
    },
  };
}
