import { FIX_LABELS, FILL_POSITION_LABELS, type BulkFixResult, type FillPosition, type FixedWork, type FixKind, type FixPlanRow, type FixSample } from '@portal/contract/bulk-fix';
import { App, Button, Flex, Image, Modal, Progress, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/http.ts';
import { applyFixes } from '../api/apply-fixes.ts';
import { fixTask } from '../api/fix-task.ts';
import { previewFixes } from '../api/preview-fixes.ts';
import { undoFixes } from '../api/undo-fixes.ts';
import { percent, type FixTarget } from '../lib/targets.ts';
import { DIALOG_TOP, SCROLLING_DIALOG } from '../../../lib/styles.ts';

const POLL_MS = 1000;
const NO_FIX = 'none';

type Phase = { name: 'choose' } | { name: 'running'; done: number; total: number } | { name: 'done'; taskId: string; result: BulkFixResult };

const sizeText = (s: FixPlanRow['after']) => (s ? `${s.widthMm}×${s.heightMm}mm · ${s.widthPx}×${s.heightPx}px · ${Math.round(s.dpi)}dpi` : '—');
const shareText = (r: { kind: FixKind; cutShare: number; padShare: number }) =>
  r.kind === 'fill' ? `裁切掉${percent(r.cutShare)}` : r.kind === 'fit' ? `留白${percent(r.padShare)}` : '';

/**
 * 批量修复: each file's fix (suggested by its problem), the effect on a sample before anything changes
 * (预览效果: before/after pictures and the share cut away or padded), then 应用修复 as a long task on
 * the server with its progress, and undo per file (撤销) or for all (全部撤销). `onChanged` gets the works
 * whose files changed (they were checked again on the server) so the page can take their new state.
 */
export function BulkFixDialog({ targets, onClose, onChanged }: {
  targets: readonly FixTarget[];
  onClose: () => void;
  onChanged: (works: readonly FixedWork[]) => Promise<void>;
}) {
  const { message } = App.useApp();
  const [kinds, setKinds] = useState<Record<string, FixKind | null>>(() => Object.fromEntries(targets.map((t) => [t.filePath, t.kind])));
  const [position, setPosition] = useState<FillPosition>('centre');
  const [plan, setPlan] = useState<{ rows: FixPlanRow[]; samples: FixSample[] } | null>(null);
  // The samples are scrolled into view when they come: below the table only their captions showed (LAN walk).
  const samplesRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (plan?.samples.length) samplesRef.current?.scrollIntoView({ block: 'nearest' });
  }, [plan]);
  const [busy, setBusy] = useState(false);
  const [phase, setPhase] = useState<Phase>({ name: 'choose' });
  const [undone, setUndone] = useState<ReadonlySet<string>>(new Set());
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  const items = useMemo(() => targets.flatMap((t) => (kinds[t.filePath] ? [{ workUuid: t.workUuid, filePath: t.filePath, kind: kinds[t.filePath]! }] : [])), [targets, kinds]);
  const planOf = (t: FixTarget) => plan?.rows.find((r) => r.filePath === t.filePath && r.workUuid === t.workUuid);
  const doneOf = (t: FixTarget) => (phase.name === 'done' ? phase.result.items.find((r) => r.filePath === t.filePath && r.workUuid === t.workUuid) : undefined);
  const hasFill = items.some((i) => i.kind === 'fill');

  // Choosing again makes the shown effect stale: it is looked at again before applying.
  const choose = (filePath: string, kind: FixKind | null) => {
    setKinds((k) => ({ ...k, [filePath]: kind }));
    setPlan(null);
  };

  async function preview() {
    setBusy(true);
    try {
      setPlan(await previewFixes({ items, position }));
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function apply() {
    setBusy(true);
    try {
      const taskId = await applyFixes({ items, position });
      setPhase({ name: 'running', done: 0, total: items.length });
      for (;;) {
        const t = await fixTask(taskId);
        if (!alive.current) return;
        if (t.status === 'failed') throw new Error(t.error ?? '修复失败，请重试');
        if (t.status === 'finished' && t.result) {
          await onChanged(t.result.works);
          setPhase({ name: 'done', taskId, result: t.result });
          const fixed = t.result.items.filter((i) => i.ok).length;
          if (fixed === t.result.items.length) message.success(`修复完成：${fixed}个文件`);
          else message.warning(`修复完成：${fixed}个文件，${t.result.items.length - fixed}个未修复`);
          return;
        }
        // Until the task reports its own count (files and works to check again), the files are the count.
        setPhase({ name: 'running', done: t.progress.done, total: t.progress.total || items.length });
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } catch (error) {
      message.error(errorMessage(error));
      if (alive.current) setPhase({ name: 'choose' });
    } finally {
      if (alive.current) setBusy(false);
    }
  }

  async function undo(body: { fixIds?: string[]; taskId?: string }, ids: string[]) {
    setBusy(true);
    try {
      const answer = await undoFixes(body);
      await onChanged(answer.works);
      setUndone((s) => new Set([...s, ...ids, ...answer.undone.map((u) => u.fixId)]));
      message.success(`已撤销${answer.undone.length}个修复`);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  // 批量确认使用 and 删除 change no picture: their dry run comes without a click (应用修复 waited for a 预览效果
  // that could show nothing: LAN check, 2026-11-29). Once per choice of fixes, so a refused run is not repeated.
  const pictureless = items.length > 0 && items.every((i) => i.kind === 'accept' || i.kind === 'delete');
  const autoKey = pictureless ? JSON.stringify(items) : '';
  const autoRun = useRef('');
  useEffect(() => {
    if (!autoKey || plan || phase.name !== 'choose' || autoRun.current === autoKey) return;
    autoRun.current = autoKey;
    void preview();
  });

  const columns = [
    // One line each, the whole name on hover: an 80-character work name squeezed 效果 into five lines.
    { title: '作品', key: 'work', width: 160, ellipsis: true, render: (_: unknown, t: FixTarget) => <span title={t.articleName}>{t.articleName}</span> },
    { title: '文件', key: 'file', width: 160, ellipsis: true, render: (_: unknown, t: FixTarget) => <span title={t.fileName}>{t.fileName}</span> },
    { title: '问题', key: 'problem', width: 240, render: (_: unknown, t: FixTarget) => <Typography.Text type="danger" style={{ fontSize: 12 }}>{t.problem}</Typography.Text> },
    {
      title: '修复方式', key: 'kind', width: 150,
      render: (_: unknown, t: FixTarget) => (
        <Select
          size="small"
          style={{ width: 136 }}
          aria-label={`修复方式 ${t.fileName}`}
          disabled={phase.name !== 'choose'}
          value={kinds[t.filePath] ?? NO_FIX}
          onChange={(v: string) => choose(t.filePath, v === NO_FIX ? null : (v as FixKind))}
          options={[...t.kinds.map((k) => ({ value: k, label: FIX_LABELS[k] })), { value: NO_FIX, label: '不修复' }]}
        />
      ),
    },
    {
      title: phase.name === 'done' ? '结果' : '效果', key: 'effect',
      render: (_: unknown, t: FixTarget) => {
        const d = doneOf(t);
        if (d) {
          if (!d.ok) return <Typography.Text type="danger">未修复：{d.reason}</Typography.Text>;
          if (d.fixId && undone.has(d.fixId)) return <Tag>已撤销</Tag>;
          return (
            <Space size={4} wrap>
              <Tag color="green">已修复</Tag>
              {d.kind === 'accept' && <Tag color="blue">已确认使用</Tag>}
              {d.stillWarned && d.kind !== 'accept' && <Tag color="orange">分辨率仍不足</Tag>}
              {d.fixId && <Button size="small" type="link" disabled={busy} onClick={() => void undo({ fixIds: [d.fixId!] }, [d.fixId!])}>撤销</Button>}
            </Space>
          );
        }
        const p = planOf(t);
        if (!p) return t.note && !kinds[t.filePath] ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t.note}</Typography.Text> : null;
        if (!p.ok) return <Typography.Text type="danger">{p.reason}</Typography.Text>;
        return (
          <Space size={4} wrap>
            <Typography.Text style={{ fontSize: 12 }}>{p.kind === 'accept' || p.kind === 'delete' ? FIX_LABELS[p.kind] : sizeText(p.after)}</Typography.Text>
            {shareText(p) && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{shareText(p)}</Typography.Text>}
            {p.stillWarned && p.kind !== 'accept' && <Tag color="orange">分辨率仍不足</Tag>}
          </Space>
        );
      },
    },
  ];

  const done = phase.name === 'done';
  const liveFixes = done ? phase.result.items.filter((i) => i.fixId && !undone.has(i.fixId)) : [];
  const footer = done
    ? [
        <Button key="undo-all" danger disabled={busy || liveFixes.length === 0} onClick={() => void undo({ taskId: phase.taskId }, liveFixes.map((i) => i.fixId!))}>全部撤销</Button>,
        <Button key="close" type="primary" onClick={onClose}>完成</Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={phase.name === 'running'}>取消</Button>,
        <Button key="preview" disabled={items.length === 0 || phase.name === 'running'} loading={busy && phase.name === 'choose' && !plan} onClick={() => void preview()}>预览效果</Button>,
        <Button key="apply" type="primary" disabled={!plan || items.length === 0 || !plan.rows.some((r) => r.ok)} loading={phase.name === 'running'} onClick={() => void apply()}>应用修复</Button>,
      ];

  return (
    // The body scrolls and the footer stays in view: with the samples, 应用修复 fell below a 937 px window (LAN walk, 2026-11-30).
    <Modal open title="批量修复" width={1000} style={DIALOG_TOP} styles={SCROLLING_DIALOG}
      onCancel={phase.name === 'running' ? undefined : onClose} closable={phase.name !== 'running'} maskClosable={false} footer={footer} destroyOnHidden>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {/* Only the chosen works' files (it did not say so: walk, 2026-11-30); the other rows are left as they are. */}
          {`所选${new Set(targets.map((t) => t.workUuid)).size}个作品中共${targets.length}个文件待处理，其他作品不受影响。`}修复后的文件另存，原文件保留，可随时撤销；修复后作品会自动重新校验，分辨率不足的文件仍会提示分辨率异常。
        </Typography.Text>
        {hasFill && phase.name === 'choose' && (
          <Radio.Group value={position} onChange={(e) => { setPosition(e.target.value as FillPosition); setPlan(null); }}
            options={(Object.keys(FILL_POSITION_LABELS) as FillPosition[]).map((p) => ({ value: p, label: FILL_POSITION_LABELS[p] }))} />
        )}
        <Table<FixTarget> size="small" rowKey={(t) => `${t.workUuid}:${t.filePath}`} columns={columns} dataSource={[...targets]} pagination={targets.length > 10 ? { pageSize: 10 } : false} />
        {phase.name === 'running' && (
          <div aria-label="修复进度">
            <Typography.Text>{`正在修复 ${Math.min(phase.done, phase.total)}/${phase.total}`}</Typography.Text>
            <Progress percent={Math.round((100 * phase.done) / phase.total)} />
          </div>
        )}
        {plan && phase.name === 'choose' && (
          <Flex vertical gap={8} aria-label="修复示例" ref={samplesRef}>
            <Typography.Text strong>修复示例（修复前 → 修复后）</Typography.Text>
            {plan.samples.length === 0 && <Typography.Text type="secondary">所选修复不改变图片内容（批量确认使用、删除），没有示例</Typography.Text>}
            <Flex gap={16} wrap>
              {plan.samples.map((s) => (
                <Flex key={s.filePath} vertical gap={4} style={{ width: 300 }}>
                  <Typography.Text ellipsis style={{ fontSize: 12 }}>{s.fileName} · {FIX_LABELS[s.kind]}{shareText(s) ? ` · ${shareText(s)}` : ''}</Typography.Text>
                  <Flex gap={4} align="center">
                    <Image src={s.beforeUrl} alt={`修复前 ${s.fileName}`} width={140} height={100} style={{ objectFit: 'contain', background: '#f0f0f0' }} preview={false} />
                    <span aria-hidden>→</span>
                    <Image src={s.afterUrl} alt={`修复后 ${s.fileName}`} width={140} height={100} style={{ objectFit: 'contain', background: '#f0f0f0', outline: '1px solid #d9d9d9' }} preview={false} />
                  </Flex>
                </Flex>
              ))}
            </Flex>
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}
