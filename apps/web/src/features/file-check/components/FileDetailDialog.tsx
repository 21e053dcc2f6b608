import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, PlusOutlined } from '@ant-design/icons';
import type { FileCheckRow } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { fileLabels } from '@portal/contract/rules';
import { App, Button, Flex, Image, Modal, Popconfirm, Spin, Table, Tooltip, Typography, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { isApiError } from '../../../lib/http.ts';
import { useAccount } from '../../auth/index.ts';
import { CropDialog, cropRefusal, type CropResult, type CropTarget } from '../../crop/index.ts';
import { sortWorkFiles } from '../../photo-sort/index.ts';
import { selectWorkByUuid, useBatch, useCheckEntries, useWorks, type WorkRow } from '../../batch/index.ts';
import { deleteStoredFile } from '../../upload/index.ts';
import { FitDrawing } from '../../fit-drawing/index.ts';
import { addFileToWork, canAddFiles, replaceFileInWork, sameFormat } from '../add-file.ts';
import { checkEntryIdOf, checkFlowOf } from '../check-works.ts';
import {
  detailOf,
  freshUrl,
  messageOf,
  withoutFile,
  pixelsOf,
  quantitySummary,
  sizeText,
  standardDpiText,
  standardSizeText,
  withNewFile,
  type DetailModel,
} from '../lib/detail.ts';
import { pageAssignmentLines } from '../lib/page-ranges.ts';
import { IMAGE_ACCEPT, isAcceptedImage, uploadInto, uploadTargetOf } from '../lib/upload-into.ts';
import { DIALOG_TOP, SCROLLING_DIALOG } from '../../../lib/styles.ts';

type RowsModel = Extract<DetailModel, { kind: 'rows' }>;
const keyOf = (row: FileCheckRow) => `${row.itemPath}#${row.page ?? ''}`;
const THUMB = 40;

/** Asks for one file and hands it over; the input is reset so the same file can be picked again. */
function useFilePicker(onPicked: (file: File, key: string) => void) {
  const input = useRef<HTMLInputElement>(null);
  const forKey = useRef('');
  const element = (
    <input
      ref={input}
      type="file"
      hidden
      data-testid="file-detail-input"
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) onPicked(file, forKey.current);
      }}
    />
  );
  const pick = (key: string, accept: string) => {
    if (!input.current) return;
    forKey.current = key;
    input.current.accept = accept;
    input.current.click();
  };
  return { element, pick };
}

function Body({ work, model, onClose, renderFileActions }: { work: WorkRow; model: DetailModel; onClose: () => void; renderFileActions?: FileActionsRenderer | undefined }) {
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const customerHubId = useAccount().data?.customerHubId;
  const batch = useBatch();
  const { removeWorks, updateWork } = batch;
  const { markWorkChanged, recheckWorkQuietly } = checkFlowOf(batch);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [cropping, setCropping] = useState<{ key: string; target: CropTarget } | undefined>();
  const [adding, setAdding] = useState(false);
  // Files whose bytes changed here (re-upload, crop): the check's answer links their preview under the
  // same address as before, which the browser has cached, so their links get a mark of the change.
  const [changedAt, setChangedAt] = useState<Readonly<Record<string, number>>>({});
  const markChanged = (itemPath: string) => setChangedAt((m) => ({ ...m, [itemPath]: Date.now() }));
  const previewOf = (row: FileCheckRow) => {
    const at = changedAt[row.itemPath];
    return at ? freshUrl(row.previewUrl, at) : row.previewUrl;
  };

  const setRowBusy = (key: string, on: boolean) =>
    setBusy((s) => {
      const next = new Set(s);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  /**
   * Replaces one row at once (what the file now measures); the old answer no longer describes the
   * work, so its status and the entries go to error until the check that follows answers.
   */
  const replaceRow = (current: RowsModel, key: string, next: FileCheckRow) => {
    const rows = current.rows.map((r) => (keyOf(r) === key ? next : r));
    markWorkChanged(work.uuid, messageOf({ ...current, rows, status: 'error' }));
  };

  /** Checks the work again on the server: the rows and the red messages become the new answer's. The changed file's new row, if asked. */
  const recheck = async (itemPath?: string): Promise<FileCheckRow | undefined> => {
    if (customerHubId === undefined) return undefined;
    const { rows } = await recheckWorkQuietly(work.uuid, customerHubId);
    return itemPath === undefined ? undefined : rows.find((r) => r.itemPath === itemPath);
  };

  const picker = useFilePicker((file, key) => {
    if (key === '__add__') void onAdd(file);
    else void onReupload(file, key);
  });

  if (model.kind === 'plain') {
    return (
      <Typography.Paragraph type="danger" data-testid="file-detail-plain" style={{ margin: '12px 0' }}>
        {model.text}
      </Typography.Paragraph>
    );
  }

  const onReupload = async (file: File, key: string) => {
    const row = model.rows.find((r) => keyOf(r) === key);
    if (!row) return;
    if (!isAcceptedImage(file.name)) {
      void message.warning('只能上传.png,.jpg,.jpeg文件');
      return;
    }
    setRowBusy(key, true);
    try {
      if (!sameFormat(file.name, row.itemPath)) {
        // Another format: stored under its own extension, in the work instead of the old file (a new work on the server, checked again).
        if (customerHubId === undefined) return;
        await replaceFileInWork(batch, work, row.itemPath, file, customerHubId);
        void message.success(MSG.uploadSuccess);
        return;
      }
      const done = await uploadInto(file, row.itemPath);
      const info = done.info as { width?: number; height?: number; dpi?: number };
      if (!info.width || !info.height || !info.dpi) throw new Error(MSG.fileBroken);
      replaceRow(model, key, withNewFile(row, { widthPx: info.width, heightPx: info.height, dpi: info.dpi, previewUrl: freshUrl(done.accessUrl) }));
      updateWork(work.uuid, {
        files: work.files.map((f) => (f.filePath === row.itemPath ? { ...f, width: info.width ?? f.width, height: info.height ?? f.height, dpi: info.dpi ?? f.dpi } : f)),
      });
      markChanged(row.itemPath);
      void message.success(MSG.uploadSuccess);
      await recheck(row.itemPath);
    } catch (error) {
      const text = error instanceof Error && error.message ? error.message : MSG.uploadFailed;
      void message.error(text === MSG.uploadFailed ? text : `${MSG.uploadFailed.replace(/！$/, '')}：${text}`);
    } finally {
      setRowBusy(key, false);
    }
  };

  const onAdd = async (file: File) => {
    if (!isAcceptedImage(file.name)) {
      void message.warning('只能添加.png,.jpg,.jpeg文件');
      return;
    }
    if (customerHubId === undefined) return;
    setAdding(true);
    try {
      const name = await addFileToWork(batch, work, file, customerHubId);
      // A name the work holds is added beside it, not over it: said, or the customer pays for a print they meant to replace (LAN walk).
      if (name === file.name) void message.success(MSG.uploadSuccess);
      else void message.warning({ content: MSG.addedUnderFreeName(file.name, name), duration: 8 });
    } catch (error) {
      void message.error(error instanceof Error && error.message ? error.message : MSG.uploadFailed);
    } finally {
      setAdding(false);
    }
  };

  const onCrop = (row: FileCheckRow) => {
    // The pixels the upload read, when the page has them; else the row's mm at its dpi.
    const file = work.files.find((f) => f.filePath === row.itemPath);
    const px = file && file.width > 0 && file.height > 0 && file.dpi ? { width: file.width, height: file.height, dpi: file.dpi } : pixelsOf(row);
    const refusal = cropRefusal({ ...px, reason: row.reason });
    if (refusal) {
      void message.error(refusal);
      return;
    }
    setCropping({
      key: keyOf(row),
      target: {
        path: row.itemPath,
        name: labelOf(row),
        imageUrl: previewOf(row),
        width: px.width,
        height: px.height,
        dpi: px.dpi,
        standard: row.component
          ? {
              width: row.component.width,
              height: row.component.height,
              error: row.component.error,
              errorType: row.component.errorType,
              autoOrientationDetection: row.component.autoOrientationDetection,
              resolutionThreshold: row.resolutionThreshold,
              resolutionLimit: row.resolutionLimit,
            }
          : null,
        reason: row.reason,
      },
    });
  };

  const onCropped = async (result: CropResult) => {
    const c = cropping;
    setCropping(undefined);
    if (!c) return;
    const row = model.rows.find((r) => keyOf(r) === c.key);
    if (!row) return;
    replaceRow(
      model,
      c.key,
      withNewFile(row, { widthPx: result.widthPx, heightPx: result.heightPx, dpi: result.dpi, previewUrl: freshUrl(result.previewUrl), previewRelativeUrl: result.previewRelativeUrl }),
    );
    updateWork(work.uuid, {
      files: work.files.map((f) => (f.filePath === row.itemPath ? { ...f, width: result.widthPx, height: result.heightPx, dpi: result.dpi } : f)),
    });
    markChanged(row.itemPath);
    // What the crop achieved is what the check says now, not that the server cut the file.
    setRowBusy(c.key, true);
    try {
      const now = await recheck(row.itemPath);
      if (!now) void message.warning(MSG.cropNotRechecked);
      else if (!now.pass) void message.error(MSG.cropStillFails(now.reason ?? MSG.checkFailedToast));
      else if (now.resolutionWarning) void message.warning(MSG.cropDpiWarning(now.reason ?? ''));
      else void message.success(MSG.cropPassed);
    } finally {
      setRowBusy(c.key, false);
    }
  };

  const onDelete = async (row: FileCheckRow) => {
    const key = keyOf(row);
    setRowBusy(key, true);
    try {
      const remaining = work.files.map((f) => f.filePath).filter((p) => p !== row.itemPath);
      if (remaining.length === 0) {
        // The work's only file: deleting it deletes the work.
        const ok = await deleteStoredFile(row.itemPath, { silent: true });
        if (!ok) throw new Error('not deleted');
        removeWorks([work.uuid]);
        void message.success(MSG.deleteSuccess);
        onClose();
        return;
      }
      const answer = await sortWorkFiles({ accessPath: work.filePath, fileNames: remaining, name: work.articleName, acceptFolder: true, workUuid: work.uuid });
      if (answer.state !== 200) throw new Error('not deleted');
      // The server took the file out of the work, which is checked again now (as after 添加文件 and 重新上传): left
      // 未匹配, its components still counted the deleted file and its entry named it until 重新校验 (screenshot review).
      updateWork(work.uuid, { files: answer.message.files, pageCount: answer.message.pageCount, state: 'unmatch' });
      markWorkChanged(work.uuid, messageOf(withoutFile(model, row.itemPath)));
      void message.success(MSG.deleteSuccess);
      await recheck();
    } catch (error) {
      void message.error(isApiError(error) && error.status >= 400 && error.status < 500 ? `${MSG.deleteFailed}：${error.message}` : MSG.deleteFailed);
    } finally {
      setRowBusy(key, false);
    }
  };

  // Files named alike in subfolders of the work are told apart by their path.
  const labels = fileLabels(model.rows.map((r) => r.itemPath));
  const labelOf = (row: FileCheckRow) => labels.get(row.itemPath) ?? row.filename;
  const columns: TableColumnsType<FileCheckRow> = [
    {
      title: '文件名称',
      key: 'filename',
      width: 250,
      render: (_: unknown, row) => (
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Image
            src={previewOf(row)}
            alt={labelOf(row)}
            width={THUMB}
            height={THUMB}
            style={{ objectFit: 'cover', borderRadius: token.borderRadiusSM, background: token.colorFillQuaternary }}
          />
          {/* A PDF's page number first: after a long file name the ellipsis cut it, and 30 rows read alike (LAN walk). */}
          <Flex vertical gap={0} style={{ minWidth: 0 }}>
            {row.page ? <Typography.Text strong data-testid="detail-page">第{row.page}页</Typography.Text> : null}
            {/* Two lines, the name's end always shown: camera folders' names differ in their last characters, and one
                line cut at the shared start made every row read alike (LAN walk, 2026-11-30). */}
            <Typography.Paragraph
              ellipsis={{ rows: 2, suffix: nameTail(labelOf(row)) }}
              title={row.page ? `${labelOf(row)} 第${row.page}页` : labelOf(row)}
              style={{ maxWidth: 186, margin: 0 }}
              type={row.page ? 'secondary' : undefined}
              data-testid="detail-name"
            >
              {nameHead(labelOf(row))}
            </Typography.Paragraph>
          </Flex>
        </Flex>
      ),
    },
    { title: '实际尺寸', key: 'size', width: 130, render: (_: unknown, row) => sizeText(row) },
    {
      title: '标准尺寸',
      key: 'standard',
      width: 150,
      render: (_: unknown, row) => (row.component ? standardSizeText(row) : <Typography.Text type="danger">{MSG.undefinedStandard}</Typography.Text>),
    },
    {
      title: '示意图',
      key: 'drawing',
      width: 116,
      render: (_: unknown, row) => <FitDrawing file={row} standard={row.component} width={100} caption="share" />,
    },
    {
      title: '实际DPI',
      key: 'dpi',
      width: 84,
      render: (_: unknown, row) => <Typography.Text type={row.resolutionWarning ? 'warning' : undefined}>{row.resolutionDetect ?? '—'}</Typography.Text>,
    },
    { title: '标准DPI', key: 'standardDpi', width: 92, render: (_: unknown, row) => standardDpiText(row) },
    {
      title: '状态',
      key: 'pass',
      width: 60,
      align: 'center',
      render: (_: unknown, row) =>
        busy.has(keyOf(row)) ? (
          <Spin size="small" />
        ) : row.pass ? (
          <CheckCircleFilled aria-label="通过" role="img" style={{ color: token.colorSuccess, fontSize: 18 }} />
        ) : (
          <Tooltip title={row.reason ?? undefined}>
            <CloseCircleFilled aria-label="不通过" role="img" style={{ color: token.colorError, fontSize: 18 }} />
          </Tooltip>
        ),
    },
    {
      title: '操作',
      key: 'actions',
      // 重新上传 调整尺寸 删除 撤销修复 side by side; every column adds up to 1,132 px, inside the dialog's 1,152
      // (at 1,500 the table scrolled sideways on every screen and 状态 hid under 操作: LAN walk, 2026-11-30).
      width: 250,
      // Always in view: on a screen narrower than the table, the other columns scroll under it.
      fixed: 'right',
      render: (_: unknown, row) => {
        const key = keyOf(row);
        const isImage = row.type === 'image';
        const canUpload = isImage && uploadTargetOf(row.itemPath) !== null;
        return (
          <Flex gap={0} wrap={false}>
            <Tooltip title={canUpload ? undefined : isImage ? '压缩包中的文件不能单独重新上传' : 'PDF文件请修改后重新上传作品'}>
              <Button type="link" size="small" disabled={!canUpload || busy.has(key)} onClick={() => picker.pick(key, IMAGE_ACCEPT)}>
                重新上传
              </Button>
            </Tooltip>
            <Tooltip title={isImage ? undefined : 'PDF文件不能调整尺寸'}>
              <Button type="link" size="small" disabled={!isImage || busy.has(key)} onClick={() => onCrop(row)}>
                调整尺寸
              </Button>
            </Tooltip>
            <Popconfirm
              title={MSG.deleteConfirm}
              description="删除后该文件将从作品中移除"
              icon={<ExclamationCircleFilled style={{ color: token.colorWarning }} />}
              okText="确定"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(row)}
            >
              <Button type="link" size="small" danger disabled={busy.has(key)}>
                删除
              </Button>
            </Popconfirm>
            {renderFileActions?.({ itemPath: row.itemPath, busy: busy.has(key) })}
          </Flex>
        );
      },
    },
  ];

  const addable = canAddFiles(work);
  const pageLines = pageAssignmentLines(model.rows);
  return (
    <Flex vertical gap={12}>
      {picker.element}
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis title={model.fileName}>
            {model.fileName}
          </Typography.Text>
          <Flex align="center" gap={6}>
            <Typography.Text type="secondary" data-testid="file-detail-quantity">
              数量 {quantitySummary(model.rows)}
            </Typography.Text>
            {model.pageCountWarning && (
              <Tooltip title="页数不符合要求">
                <ExclamationCircleFilled aria-label="页数警告" role="img" style={{ color: token.colorWarning }} />
              </Tooltip>
            )}
          </Flex>
          {pageLines.length > 0 && (
            <Flex vertical data-testid="file-detail-pages">
              {pageLines.map((line) => (
                <Typography.Text key={line} type="secondary">
                  {line}
                </Typography.Text>
              ))}
            </Flex>
          )}
        </Flex>
        <Tooltip title={addable ? undefined : '只有文件夹上传的作品可以添加文件'}>
          <Button icon={<PlusOutlined />} loading={adding} disabled={!addable} onClick={() => picker.pick('__add__', IMAGE_ACCEPT)}>
            添加文件
          </Button>
        </Tooltip>
      </Flex>
      {model.messages.length > 0 && (
        <ul role="list" aria-label="校验错误" style={{ margin: 0, paddingLeft: 20, color: token.colorError, maxHeight: 120, overflowY: 'auto' }}>
          {model.messages.map((m, i) => (
            <li key={`${i}-${m}`}>{m}</li>
          ))}
        </ul>
      )}
      <Table<FileCheckRow>
        size="small"
        rowKey={keyOf}
        columns={columns}
        dataSource={model.rows}
        // Above the table with its count: below it, the pages of a work over 20 rows sat under the dialog's fold, and
        // nothing in view said there were more (LAN walk, 2026-11-30: a folder of 63 files, 94 rows).
        pagination={model.rows.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false, position: ['topRight'], showTotal: (total) => `共${total}项` } : false}
        scroll={{ x: 'max-content', y: 420 }}
      />
      <CropDialog target={cropping?.target} onClose={() => setCropping(undefined)} onCropped={(result) => void onCropped(result)} />
    </Flex>
  );
}

/** A file name's last characters (its number and extension), kept in view when the rest is cut. */
const TAIL_CHARS = 10;
const nameTail = (name: string) => [...name].slice(-TAIL_CHARS).join('');
const nameHead = (name: string) => [...name].slice(0, -TAIL_CHARS).join('');

/** More actions for one file of the dialog (the page adds 撤销修复 of features/bulk-fix for a fixed picture). */
export type FileActionsRenderer = (file: { itemPath: string; busy: boolean }) => ReactNode;

export interface FileDetailDialogProps {
  /** The work whose check is shown; the dialog is closed when undefined. */
  workUuid: string | undefined;
  onClose: () => void;
  renderFileActions?: FileActionsRenderer | undefined;
}

/**
 * 文件详情 (../shared/spec/product-spec.md §2): the check of a work file by file, with 添加文件, 重新上传, 调整尺寸 and
 * 删除. What it shows is the check's answer kept with the work's entry (or row): a change made here
 * is written back there at once, so the page and a reopened dialog agree.
 */
export function FileDetailDialog({ workUuid, onClose, renderFileActions }: FileDetailDialogProps) {
  const work = useWorks(useMemo(() => selectWorkByUuid(workUuid ?? ''), [workUuid]));
  const entryDetail = useCheckEntries((s) => (workUuid ? s.byId[checkEntryIdOf(workUuid)]?.messageDetail : undefined));
  const source = entryDetail ?? work?.checkResult;
  const model = work ? detailOf(source ?? MSG.checkFailedNetwork, work.fileName) : undefined;

  return (
    <Modal
      open={workUuid !== undefined && work !== undefined}
      title="文件详情"
      // The table's columns add up to 1,132 px (Body): at 1,080 the row's 删除 was cut off (1440×900).
      width={1200}
      style={DIALOG_TOP}
      styles={SCROLLING_DIALOG}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>返回</Button>}
    >
      {work && model && <Body work={work} model={model} onClose={onClose} renderFileActions={renderFileActions} />}
    </Modal>
  );
}
