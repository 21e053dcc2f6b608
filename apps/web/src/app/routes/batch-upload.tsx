import type { OrderLocation } from '@portal/contract/api';
import type { FixKind } from '@portal/contract/bulk-fix';
import type { TriageGroup } from '@portal/contract/triage';
import { Card, Flex, Space, Typography } from 'antd';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, type ComponentProps } from 'react';
import { FullPageSpin } from '../../components/FullPageSpin.tsx';
import { AddressLine, UnifiedAddressButton } from '../../features/address/index.ts';
import { useAccount, useCustomerHub } from '../../features/auth/index.ts';
import { isPreflightKey, useBatch, useCheckEntries, useWorks, rowByUuid } from '../../features/batch/index.ts';
import { BulkFixActions, BulkFixButton, BulkFixHost, UndoFixButton } from '../../features/bulk-fix/index.ts';
import { discardServerDraft, useServerDraft } from '../../features/draft/index.ts';
import { checkFlowOf, CheckProgressBar, chooseProductForPreflight, renderCheckEntryActions, FileCheckHost, reselectProduct, SelectProductButton, type FileActionsRenderer } from '../../features/file-check/index.ts';
import { SortPhotosButton } from '../../features/photo-sort/index.ts';
import { revealTriage, TriageFilterBar, TriagePanel, useTriageFilter } from '../../features/triage/index.ts';
import { DuplicateDialog, useBatchSubmit, useRestoreDraft, resetBatch } from '../../features/submit/index.ts';
import { SuggestPanel } from '../../features/suggest/index.ts';
import { UploadArea } from '../../features/upload/index.ts';
import { installTestHook, WorksFooter, WorksTable, computeTotals } from '../../features/works-table/index.ts';

/** The totals and the order buttons; re-renders only when rows change, not on upload progress. */
function Footer({ submitting, onSubmit }: { submitting: boolean; onSubmit: () => void }) {
  const batch = useBatch();
  const rows = useWorks((s) => s.rows);
  const hasEntries = useCheckEntries((s) => s.ids.length > 0);
  const totals = useMemo(() => computeTotals(rows), [rows]);
  // 批量下单 stays clickable without rows: the first checks say what is missing (请上传文件).
  return (
    <WorksFooter
      totals={totals}
      canReset={rows.length > 0 || hasEntries}
      canSubmit
      submitting={submitting}
      onReset={() => {
        resetBatch(batch);
        void discardServerDraft(batch);
      }}
      onSubmit={onSubmit}
    />
  );
}

/** A row's address line: the row's first order location, saved back to the row. */
function RowAddress({ uuid }: { uuid: string }) {
  const value = useWorks((s) => rowByUuid(s, uuid)?.orderLocations?.[0]);
  const { updateWork } = useBatch();
  const onSave = useCallback((location: OrderLocation) => updateWork(uuid, { orderLocations: [location] }), [updateWork, uuid]);
  return <AddressLine uuid={uuid} value={value} onSave={onSave} />;
}
const renderAddress = (uuid: string) => <RowAddress uuid={uuid} />;

const NOT_IN_TRIAGE: readonly FixKind[] = ['delete'];
/** A triage group's fixes (裁切填充, 留白适配, 旋转, 批量确认使用); its own 删除 removes whole works. Renders again only when the group changes. */
const GroupFixes = memo(function GroupFixes({ group }: { group: TriageGroup }) {
  const files = useMemo(() => group.files.map((f) => ({ workUuid: f.workUuid, filePath: f.row.itemPath })), [group]);
  return <BulkFixActions without={NOT_IN_TRIAGE} files={files} />;
});
const renderGroupFixes = (group: TriageGroup) => <GroupFixes group={group} />;
/** 文件详情's 撤销修复 for a fixed picture (features/bulk-fix), any time after 批量修复 was closed. */
const renderFileActions: FileActionsRenderer = ({ itemPath, busy }) => <UndoFixButton filePath={itemPath} disabled={busy} />;

/**
 * The order table, filtered to the triage's chosen group: a change of the filter renders the table, not
 * the page, and in a deferred render (React renders it in slices between frames; 2,000 rows to a group
 * and back took one long task after the click).
 */
function OrderTable(props: Omit<ComponentProps<typeof WorksTable>, 'onlyUuids'>) {
  const onlyUuids = useDeferredValue(useTriageFilter());
  return <WorksTable {...props} onlyUuids={onlyUuids} />;
}

/**
 * The batch upload order page. It waits for the hub: batchAddressParsing decides the delivery
 * mode, the 统一设置地址 button and the address lines of each row. Upload progress, check
 * entries and rows live in stores outside React; each part below subscribes to its own slice.
 */
export function BatchUploadRoute() {
  const hub = useCustomerHub();
  const batch = useBatch();
  const { worksStore, updateWorks } = batch;
  const customerHubId = useAccount().data?.customerHubId;
  useRestoreDraft(customerHubId);
  // After the /payment1 draft: a page that came back from /payment1 keeps its rows and saves them over the server's draft.
  useServerDraft(customerHubId);
  const hasWorks = useWorks((s) => s.rows.length > 0);
  const batchAddressParsing = hub.data?.batchAddressParsing ?? false;
  const submit = useBatchSubmit({ customerHubId, batchAddressParsing });
  const onRecheck = useCallback(
    (uuid: string) => {
      if (customerHubId !== undefined) void checkFlowOf(batch).recheckWorks([uuid], customerHubId);
    },
    [batch, customerHubId],
  );
  const onReselect = useCallback(
    (uuid: string) => {
      const row = rowByUuid(worksStore.getState(), uuid);
      if (row) reselectProduct(row);
      else if (isPreflightKey(uuid)) chooseProductForPreflight(uuid);
    },
    [worksStore],
  );
  const addressRows = useCallback(
    () => worksStore.getState().rows.map((r) => ({ uuid: r.uuid, name: r.articleName, saved: r.orderLocations?.[0] })),
    [worksStore],
  );
  const applyAddress = useCallback(
    (uuids: readonly string[], location: OrderLocation) => {
      const chosen = new Set(uuids);
      updateWorks((row) => (chosen.has(row.uuid) ? { orderLocations: [location] } : null));
    },
    [updateWorks],
  );
  // A check of several works ends on the triage (issue #20 item 5).
  useEffect(() => checkFlowOf(batch).onBatchChecked(() => revealTriage(batch)), [batch]);
  useEffect(() => {
    // Only the e2e build (and the dev server) holds the test hook: the production build folds this to nothing.
    if (import.meta.env.DEV || import.meta.env.MODE === 'e2e') installTestHook(batch);
  }, [batch]);

  if (!hub.data) return <FullPageSpin />;

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        批量上传下单
      </Typography.Title>
      <UploadArea renderEntryActions={renderCheckEntryActions} />
      <CheckProgressBar />
      <SuggestPanel />
      {/* Each group's fixes (裁切填充, 留白适配, 旋转, 批量确认使用) open 批量修复 for the group's files; the
          group's own 删除 removes its works. */}
      <TriagePanel renderActions={renderGroupFixes} />
      <Card
        size="small"
        title="订单列表"
        extra={
          <Space>
            {batchAddressParsing && (
              <UnifiedAddressButton customerHubId={customerHubId} disabled={!hasWorks} rows={addressRows} apply={applyAddress} />
            )}
            <SortPhotosButton onRecheck={onRecheck} />
            <BulkFixButton />
            {/* Clickable with nothing checked: it says 请选择订单. */}
            <SelectProductButton />
          </Space>
        }
        styles={{ body: { padding: 0 } }}
      >
        <TriageFilterBar />
        <OrderTable renderAddress={batchAddressParsing ? renderAddress : undefined} onReselect={onReselect} />
      </Card>
      <Card size="small">
        <Footer submitting={submit.checking} onSubmit={() => void submit.submit()} />
      </Card>
      <DuplicateDialog {...submit.duplicateDialog} />
      <FileCheckHost renderFileActions={renderFileActions} />
      <BulkFixHost />
    </Flex>
  );
}
