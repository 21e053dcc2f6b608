import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  FileOutlined,
  FolderOutlined,
  LoadingOutlined,
} from '@ant-design/icons';
import type { CheckEntryStatus } from '@portal/contract/enums';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Empty, Flex, Popconfirm, Progress, Tag, Typography, theme } from 'antd';
import { memo, use, useDeferredValue, useRef, type ReactNode } from 'react';
import { shallowEqual } from '../../../lib/external-store.ts';
import { formatBytes, percentOf } from '../../../lib/format.ts';
import { ELLIPSIS } from '../../../lib/styles.ts';
import { removableIds, selectHasProblems, selectItem, useBatch, useCheckEntries, useUploadState, useWorks, type CheckEntry } from '../../batch/index.ts';
import { uploadFlowOf } from '../upload-batch.ts';
import { RepickContext } from './repick.ts';

// CSS ellipsis, not Typography's: that one measures every line after render, which in a list
// redrawn five times a second shows blank lines until it settles.
const ROW_ESTIMATE = 64;

const STATUS: Record<CheckEntryStatus, { label: string; color: string }> = {
  start: { label: '处理中', color: 'processing' },
  success: { label: '成功', color: 'success' },
  error: { label: '异常', color: 'error' },
  dpiAbnormal: { label: '分辨率异常', color: 'warning' },
  failure: { label: '失败', color: 'error' },
};
/**
 * An upload a reload or a closed tab left unfinished, waiting for its files to be picked again: nothing failed, so not
 * the red 失败 (files probe, 2026-12-01). Its state stays 'failure' (../shared/spec/product-spec.md §4).
 */
const UNFINISHED = { label: '未完成', color: 'warning' };

function StatusIcon({ status, unfinished }: { status: CheckEntryStatus; unfinished: boolean }) {
  const { token } = theme.useToken();
  const style = { fontSize: 16 };
  if (unfinished) return <ExclamationCircleFilled style={{ ...style, color: token.colorWarning }} />;
  switch (status) {
    case 'start':
      return <LoadingOutlined style={{ ...style, color: token.colorPrimary }} />;
    case 'success':
      return <CheckCircleFilled style={{ ...style, color: token.colorSuccess }} />;
    case 'dpiAbnormal':
      return <ExclamationCircleFilled style={{ ...style, color: token.colorWarning }} />;
    default:
      return <CloseCircleFilled style={{ ...style, color: token.colorError }} />;
  }
}

/** One file being sent right now, with its own bar. */
function ActiveFile({ id }: { id: string }) {
  const file = useUploadState((s) => s.files[id]);
  if (!file) return null;
  return (
    <Flex align="center" gap={8} style={{ fontSize: 12 }}>
      <Typography.Text type="secondary" style={{ ...ELLIPSIS, flex: 1, fontSize: 12 }} title={file.relativePath}>
        {file.relativePath}
      </Typography.Text>
      <Progress
        percent={percentOf(file.bytesDone, file.size)}
        size={{ width: 90, height: 4 }}
        showInfo={false}
        // A line Progress is 100% wide by default: it would squeeze the file name out of the row.
        style={{ width: 90, flex: 'none', margin: 0 }}
        aria-label={`${file.relativePath} 上传进度`}
      />
    </Flex>
  );
}

function UploadingBody({ itemKey }: { itemKey: string }) {
  const item = useUploadState(selectItem(itemKey));
  const active = useUploadState((s) => s.active.filter((id) => s.files[id]?.itemKey === itemKey), shallowEqual);
  if (!item) return null;
  const percent = percentOf(item.bytesDone, item.bytesTotal);
  return (
    <Flex vertical gap={2}>
      <Flex align="center" gap={12}>
        <Progress percent={percent} size="small" status="active" style={{ flex: 1, margin: 0 }} aria-label={`${item.name} 上传进度`} />
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {item.isFolder ? `已上传 ${item.filesDone}/${item.filesTotal} 个文件` : `${formatBytes(item.bytesDone)} / ${formatBytes(item.bytesTotal)}`}
        </Typography.Text>
      </Flex>
      {item.isFolder && active.map((id) => <ActiveFile key={id} id={id} />)}
    </Flex>
  );
}

function ParsingBody({ entry }: { entry: CheckEntry }) {
  const progress = entry.taskProgress;
  if (!progress || progress.total === 0) {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        上传完成，正在解析…
      </Typography.Text>
    );
  }
  return (
    <Flex align="center" gap={12}>
      <Progress percent={percentOf(progress.done, progress.total)} size="small" status="active" style={{ flex: 1, margin: 0 }} />
      <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
        正在解析 {progress.done}/{progress.total}
      </Typography.Text>
    </Flex>
  );
}

function MessageBody({ entry }: { entry: CheckEntry }) {
  const type = entry.status === 'success' ? 'success' : entry.status === 'dpiAbnormal' || entry.retry === 'pick' ? 'warning' : 'danger';
  return (
    <Flex vertical gap={0}>
      {entry.message && (
        <Typography.Text type={type} style={{ fontSize: 13 }}>
          {entry.message}
        </Typography.Text>
      )}
      {entry.details?.map((line) => (
        <Typography.Text key={line} type="secondary" style={{ ...ELLIPSIS, fontSize: 12 }} title={line}>
          {line}
        </Typography.Text>
      ))}
    </Flex>
  );
}

/** 重试 / 跳过失败文件 / 重新解析 for the upload's failures. */
function UploadActions({ entry }: { entry: CheckEntry }) {
  const item = useUploadState(selectItem(entry.uploadItemKey));
  const { retryEntry, parseWithoutFailed } = uploadFlowOf(useBatch());
  const repick = use(RepickContext);
  if (entry.status !== 'failure' || !item) return null;
  if (entry.retry === 'pick') {
    return (
      <Button type="link" size="small" disabled={!repick} onClick={() => (item.isFolder ? repick?.pickFolder() : repick?.pickFiles())}>
        重新选择
      </Button>
    );
  }
  if (entry.retry === 'parse') {
    return (
      <Button type="link" size="small" onClick={() => retryEntry(entry.id)}>
        重新解析
      </Button>
    );
  }
  if (entry.retry !== 'upload' && entry.retry !== 'skip') return null;
  return (
    <>
      {entry.retry === 'upload' && (
        <Button type="link" size="small" onClick={() => retryEntry(entry.id)}>
          重试
        </Button>
      )}
      {item.isFolder && item.filesDone > 0 && (
        <Button type="link" size="small" onClick={() => parseWithoutFailed(entry.id)}>
          跳过失败文件
        </Button>
      )}
    </>
  );
}

export type EntryActionsRenderer = (entry: CheckEntry) => ReactNode;

// Memoised: the list renders again whenever the virtualiser measures a row (an entry's body changes
// height from its upload bar to its message), and only that entry's row need render then.
const EntryRow = memo(function EntryRow({ id, renderActions }: { id: string; renderActions?: EntryActionsRenderer }) {
  const entry = useCheckEntries((s) => s.byId[id]);
  const { removeCheckEntries } = useBatch();
  const { token } = theme.useToken();
  if (!entry) return null;
  const unfinished = entry.status === 'failure' && entry.retry === 'pick';
  const status = unfinished ? UNFINISHED : STATUS[entry.status];
  const isFolder = !/\.[^./]+$/.test(entry.fileName);
  return (
    <Flex
      gap={10}
      align="flex-start"
      role="listitem"
      aria-label={entry.articleName}
      data-status={entry.status}
      style={{ padding: '10px 12px', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <span style={{ paddingTop: 2 }}>
        <StatusIcon status={entry.status} unfinished={unfinished} />
      </span>
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ ...ELLIPSIS, maxWidth: '50%' }} title={entry.articleName}>
            {entry.articleName}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ ...ELLIPSIS, fontSize: 12, flex: 1 }} title={entry.fileName}>
            {isFolder ? <FolderOutlined /> : <FileOutlined />} {isFolder ? '文件夹' : entry.fileName}
          </Typography.Text>
          <Tag color={status.color} style={{ marginInlineEnd: 0 }}>
            {status.label}
          </Tag>
        </Flex>
        {entry.status === 'start' && entry.phase === 'uploading' && entry.uploadItemKey ? (
          <UploadingBody itemKey={entry.uploadItemKey} />
        ) : entry.status === 'start' ? (
          <ParsingBody entry={entry} />
        ) : (
          <MessageBody entry={entry} />
        )}
      </Flex>
      {entry.status !== 'start' && entry.status !== 'success' && (
        <Flex gap={0} style={{ flexShrink: 0 }}>
          <UploadActions entry={entry} />
          {renderActions?.(entry)}
          <Button type="link" size="small" danger onClick={() => removeCheckEntries([entry.id])}>
            删除
          </Button>
        </Flex>
      )}
    </Flex>
  );
});

export interface CheckEntryListProps {
  /** More actions for an entry (the file check adds 查看详情, 重新校验, 确认使用). */
  renderActions?: EntryActionsRenderer;
}

/** The file-check entries (../shared/spec/product-spec.md §3, §4), virtualised: a pick of 2,000 photos is 2,000 entries. */
export function CheckEntryList({ renderActions }: CheckEntryListProps) {
  // Deferred: the list's first appearance (antd's Progress, Tag and their styles) renders in a
  // background pass, not in the task that lists a pick of thousands of files.
  const { checkEntriesStore, removeCheckEntries } = useBatch();
  const ids = useDeferredValue(useCheckEntries((s) => s.ids));
  const hasProblems = useCheckEntries(selectHasProblems);
  // Rows that failed or were warned while no entry speaks for them: a restored draft's, checked again
  // (entries are not kept in the draft). Said so, rather than the empty list's words for 2-3 s (LAN probe).
  const restoring = useWorks((s) => s.rows.some((r) => r.state === 'abnormal' || r.state === 'dpiAbnormal'));
  const { token } = theme.useToken();

  return (
    <Flex vertical style={{ flex: 1, minHeight: 0, minWidth: 0 }}>
      <Flex align="center" justify="space-between" style={{ minHeight: 32, marginBottom: 8 }}>
        <Typography.Text strong>
          文件检查
          {ids.length > 0 && (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }} data-testid="check-entry-count">
              （{ids.length}）
            </Typography.Text>
          )}
        </Typography.Text>
        {hasProblems && (
          <Popconfirm
            title="确定删除全部异常记录？"
            okText="确定"
            cancelText="取消"
            onConfirm={() => removeCheckEntries(removableIds(checkEntriesStore.getState()))}
          >
            <Button size="small" danger>
              全部删除
            </Button>
          </Popconfirm>
        )}
      </Flex>
      {ids.length === 0 ? (
        <Flex
          align="center"
          justify="center"
          style={{ flex: 1, minHeight: 0, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG }}
        >
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={restoring ? '正在恢复校验结果…' : '上传的文件会在这里显示上传和解析进度'} />
        </Flex>
      ) : (
        <EntryRows ids={ids} renderActions={renderActions} />
      )}
    </Flex>
  );
}

/**
 * The virtualised rows, mounted with the list: a list that empties and fills again gets a virtualiser of its
 * own. One kept across that drew nothing: a fix undone after the list had emptied showed 文件检查（1）over a
 * box of height 0 (its total size less a scroll anchor it held from the last list; e2e bulk-fix.test.ts).
 */
function EntryRows({ ids, renderActions }: { ids: readonly string[]; renderActions?: EntryActionsRenderer }) {
  const { token } = theme.useToken();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    getItemKey: (index) => ids[index] ?? index,
  });
  return (
    <div
      ref={scroller}
      role="list"
      aria-label="文件检查"
      style={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      {/* The rows in flow, moved as one to the first one's place (TanStack Virtual's "dynamic" layout): a
          row that grows or empties moves the ones under it at once. Placed one by one, each at its last
          measured offset, rows overlapped or left gaps until measured again (the LAN check, a busy page). */}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${virtualizer.getVirtualItems()[0]?.start ?? 0}px)` }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div key={row.key} data-index={row.index} ref={virtualizer.measureElement}>
              <EntryRow id={ids[row.index] as string} renderActions={renderActions} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
