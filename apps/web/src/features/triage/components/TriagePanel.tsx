import { ExclamationCircleFilled, FileImageOutlined, FilePdfOutlined } from '@ant-design/icons';
import type { TriageCause, TriageFile, TriageGroup } from '@portal/contract/triage';
import { MSG } from '@portal/contract/messages';
import { App, Button, Card, Flex, Popconfirm, Tag, Tooltip, Typography, theme } from 'antd';
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from '../../../lib/external-store.ts';
import { mapPooled } from '../../../lib/pool.ts';
import { useBatch, type WorkRow } from '../../batch/index.ts';
import { FitDrawing } from '../../fit-drawing/index.ts';
import { deleteStoredFile } from '../../upload/index.ts';
import { useTriageGroups } from '../hooks.ts';
import { chooseTriageGroup, triageStateOf } from '../state.ts';

/** Files shown as samples in a group (thumbnail and drawing); the rest are counted. */
const SAMPLES = 6;
const DELETES_AT_ONCE = 4;

const CAUSE_COLOURS: Record<TriageCause, string> = {
  尺寸偏小: 'orange',
  尺寸偏大: 'gold',
  方向不符: 'purple',
  分辨率不足: 'blue',
  页数不符: 'cyan',
  未匹配组件: 'magenta',
  文件破损: 'red',
};

/** Causes whose files are worth drawing over their required size. */
const DRAWN: ReadonlySet<TriageCause> = new Set(['尺寸偏小', '尺寸偏大', '方向不符']);

export interface TriagePanelProps {
  /**
   * The bulk fixes of a group (features/bulk-fix's BulkFixActions, mounted by the page): the group's
   * files and works are in `group.files` (each with its workUuid and check row) and `group.workUuids`.
   */
  renderActions?: (group: TriageGroup) => ReactNode;
}

const Sample = memo(function Sample({ file, drawn }: { file: TriageFile; drawn: boolean }) {
  const { token } = theme.useToken();
  const { row } = file;
  const name = `${file.label}${row.page ? ` 第${row.page}页` : ''}`;
  // The page first under the thumbnail: cut to its width, a PDF's pages all read 宣传单… (LAN probe).
  const caption = row.page ? `第${row.page}页 ${file.label}` : name;
  const detail = row.component
    ? `${name}：${row.width}×${row.height}mm，标准${row.component.width}×${row.component.height}mm${row.resolutionDetect !== null ? `，${row.resolutionDetect}dpi` : ''}`
    : `${name}：${row.reason ?? ''}`;
  return (
    <Tooltip title={detail}>
      <Flex vertical align="center" gap={2} style={{ width: drawn ? 76 : 56 }} data-testid="triage-sample">
        <Flex gap={4} align="center">
          {row.previewUrl ? (
            <img
              src={row.previewUrl}
              alt={name}
              loading="lazy"
              width={48}
              height={48}
              style={{ objectFit: 'cover', borderRadius: token.borderRadiusSM, background: token.colorFillQuaternary }}
            />
          ) : (
            // A file without a preview (a PDF's page): a 48 px tile with its kind, not an inline span that
            // collapsed to a sliver (LAN probe screenshot).
            <Flex align="center" justify="center" style={{ width: 48, height: 48, background: token.colorFillQuaternary, borderRadius: token.borderRadiusSM, color: token.colorTextTertiary, fontSize: 20 }}>
              {row.type === 'pdf' ? <FilePdfOutlined aria-label="PDF" /> : <FileImageOutlined aria-label="图片" />}
            </Flex>
          )}
        </Flex>
        {drawn && <FitDrawing file={row} standard={row.component} width={72} caption={false} />}
        <Typography.Text ellipsis style={{ fontSize: 12, maxWidth: drawn ? 76 : 56 }}>
          {caption}
        </Typography.Text>
      </Flex>
    </Tooltip>
  );
});

/** One group; renders again only when its files change or it is chosen (the triage keeps an unchanged group's object). */
const GroupRow = memo(function GroupRow({ group, chosen, renderActions }: { group: TriageGroup; chosen: boolean; renderActions?: TriagePanelProps['renderActions'] }) {
  const batch = useBatch();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const [deleting, setDeleting] = useState(false);
  const drawn = DRAWN.has(group.cause);

  /** 删除: the group's works leave the batch, their stored files too; the counts follow from the batch. */
  const onDelete = async () => {
    setDeleting(true);
    try {
      const rows = batch.worksStore.getState().rows;
      const doomed = new Set(group.workUuids);
      const works = rows.filter((r) => doomed.has(r.uuid));
      const done = await mapPooled(works, DELETES_AT_ONCE, async (w: WorkRow) => ((await deleteStoredFile(w.filePath, { silent: true }).catch(() => false)) ? w.uuid : null));
      const deleted = done.filter((x): x is string => x !== null);
      batch.removeWorks(deleted);
      if (deleted.length === works.length) void message.success(`${MSG.deleteSuccess}：${deleted.length}个作品`);
      else void message.error(`${MSG.deleteFailed}：${works.length - deleted.length}个作品未能删除`);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Flex
      vertical
      gap={8}
      role="group"
      aria-label={group.label}
      data-testid="triage-group"
      data-key={group.key}
      style={{
        padding: 12,
        borderRadius: token.borderRadius,
        border: `1px solid ${chosen ? token.colorPrimary : token.colorBorderSecondary}`,
        background: chosen ? token.colorPrimaryBg : undefined,
      }}
    >
      <Flex align="center" justify="space-between" gap={8} wrap>
        <Flex align="center" gap={8} wrap>
          <Tag color={CAUSE_COLOURS[group.cause]} style={{ marginInlineEnd: 0 }}>
            {group.cause}
          </Tag>
          <Typography.Text strong data-testid="triage-group-label">
            {group.label}
          </Typography.Text>
        </Flex>
        <Flex gap={8} align="center" wrap>
          {renderActions?.(group)}
          <Button size="small" type={chosen ? 'primary' : 'default'} onClick={() => chooseTriageGroup(batch, chosen ? null : group.key)}>
            {chosen ? '显示全部作品' : '只看这些作品'}
          </Button>
          <Popconfirm
            title={`确定删除这${group.workUuids.length}个作品？`}
            description={`「${group.title}」中的${group.workUuids.length}个作品及其文件将被删除`}
            icon={<ExclamationCircleFilled style={{ color: token.colorWarning }} />}
            okText="确定"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={onDelete}
          >
            <Button size="small" danger loading={deleting}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      </Flex>
      <Flex gap={8} wrap>
        {group.files.slice(0, SAMPLES).map((f) => (
          <Sample key={`${f.workUuid}:${f.row.itemPath}:${f.row.page ?? 0}`} file={f} drawn={drawn} />
        ))}
        {group.files.length > SAMPLES && (
          <Typography.Text type="secondary" style={{ alignSelf: 'center' }}>
            等{group.files.length}个文件
          </Typography.Text>
        )}
      </Flex>
    </Flex>
  );
});

/**
 * 文件问题汇总 (issue #20 item 1): the batch's failing and warned files grouped by cause and size of
 * the miss, with samples; choosing a group filters the order table to its works; 删除 removes them.
 * Derived from the batch's rows, so it follows checks, re-checks and deletions by itself.
 */
export function TriagePanel({ renderActions }: TriagePanelProps) {
  const batch = useBatch();
  const groups = useTriageGroups();
  const chosenKey = useStore(triageStateOf(batch), (s) => s.chosenKey);
  const reveal = useStore(triageStateOf(batch), (s) => s.reveal);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Smooth only where the customer's system allows motion: during a smooth scroll Chromium does not
    // anchor the page, so entries above that go meanwhile (a success shown for a moment) carried the panel's
    // title under the header (seen once in a clean-clone run); an instant scroll is anchored.
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reveal > 0) ref.current?.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
  }, [reveal]);
  // A chosen group that has emptied (fixed, deleted) is forgotten: the table shows every work again, and
  // a later group of the same cause and band does not filter it unasked.
  const chosenGone = chosenKey !== null && !groups.some((g) => g.key === chosenKey);
  useEffect(() => {
    if (chosenGone) chooseTriageGroup(batch, null);
  }, [batch, chosenGone]);
  const files = useMemo(() => new Set(groups.flatMap((g) => g.files.map((f) => `${f.workUuid}:${f.row.itemPath}:${f.row.page ?? 0}`))).size, [groups]);
  if (groups.length === 0) return null;
  return (
    // Below the page's sticky header.
    <div ref={ref} style={{ scrollMarginTop: 72 }}>
      <Card size="small" title="文件问题汇总" extra={<Typography.Text type="secondary">{`${files}个文件有问题`}</Typography.Text>} data-testid="triage">
        <Flex vertical gap={8}>
          {groups.map((g) => (
            <GroupRow key={g.key} group={g} chosen={g.key === chosenKey} renderActions={renderActions} />
          ))}
        </Flex>
      </Card>
    </div>
  );
}
