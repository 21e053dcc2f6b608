import type { WorkState } from '@portal/contract/enums';
import { EditOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { InputNumber, Switch } from 'antd';
import { cloneElement, isValidElement, memo, useDeferredValue, type ReactNode } from 'react';
import { rowByUuid, useBatch, useWorks, type WorkRow } from '../../batch/index.ts';
import { SizeTally, SizesList } from './SizesList.tsx';

/**
 * The cells of the order table. Each subscribes to the one field it shows, by uuid, so a change
 * to one row (a keystroke in 订购数量) re-renders that row's cell and nothing else; the table
 * itself re-renders only when rows come, go or are selected.
 *
 * Keep in mind: a scroll of the virtual table mounts a screenful of new rows in one frame, so a
 * cell must be cheap to mount. Text is plain spans with the `works-*` classes of styles.css (antd's
 * colours through its CSS variables), not Typography.Text, Flex or Button: each of those runs its
 * own style, token and resize hooks, and 2,000 rows scrolled by the scrollbar took frames of
 * 100-250 ms with them (bench/benchmarks/browser-rows.ts). The controls (订购数量, 调色, the row's
 * buttons and check box) come a moment later (`useControlsReady`): a row first shows a lookalike.
 */

/**
 * False on a row's first render, true from a background render right after it. A scroll of the
 * virtual table is a blocking update: React renders the rows it brings in one task. The antd
 * controls are what costs there, so they are left to a deferred render, which React renders in
 * slices between frames and drops for a row scrolled away before it came.
 */
export function useControlsReady(): boolean {
  return useDeferredValue(true, false);
}

/**
 * The row's check box (antd's, from rowSelection.renderCell), after a lookalike. It is named after
 * the work (选择作品 <name>): antd names it in English (Select row 3).
 */
export function DeferredCheckbox({ uuid, checked, children }: { uuid: string; checked: boolean; children: ReactNode }) {
  const ready = useControlsReady();
  const name = useRowField(uuid, (r) => r.articleName) ?? '';
  if (!ready) return <span className={checked ? 'works-ph-checkbox works-ph-on' : 'works-ph-checkbox'} aria-hidden />;
  return isValidElement<{ 'aria-label'?: string }>(children) ? cloneElement(children, { 'aria-label': `选择作品 ${name}` }) : children;
}

function useRowField<T>(uuid: string, pick: (row: WorkRow) => T): T | undefined {
  return useWorks((s) => {
    const row = rowByUuid(s, uuid);
    return row ? pick(row) : undefined;
  });
}

const dash = <span className="works-muted">—</span>;

export const STATE_LABEL: Record<WorkState, { text: string; color?: string }> = {
  unmatch: { text: '未匹配', color: '#cf1322' },
  match: { text: '已匹配' },
  abnormal: { text: '异常', color: '#cf1322' },
  dpiAbnormal: { text: '分辨率异常', color: '#d46b08' },
};

export const NameCell = memo(function NameCell({ uuid, onRename }: { uuid: string; onRename: (uuid: string) => void }) {
  const name = useRowField(uuid, (r) => r.articleName) ?? '';
  const files = useRowField(uuid, (r) => r.files.length) ?? 0;
  return (
    <div className="works-stack">
      <div className="works-line">
        {name ? (
          // CSS ellipsis, not Typography's: that one measures each cell, which costs frames while scrolling.
          <span className="works-ellipsis" title={name} data-testid="work-name">
            {name}
          </span>
        ) : (
          <span className="works-danger" data-testid="work-name">
            （未命名）
          </span>
        )}
        <button type="button" className="works-icon-button" aria-label="修改作品名称" title="修改作品名称" onClick={() => onRename(uuid)}>
          <EditOutlined />
        </button>
      </div>
      <span className="works-muted works-small">{files}个文件</span>
    </div>
  );
});

const MAX_QUANTITY = 99999;

export const QuantityCell = memo(function QuantityCell({ uuid }: { uuid: string }) {
  const quantity = useRowField(uuid, (r) => r.quantity);
  const ready = useControlsReady();
  const { updateWork } = useBatch();
  if (!ready) {
    return (
      <span className="works-ph-input" aria-hidden>
        {quantity || ''}
      </span>
    );
  }
  const step = (by: number) => updateWork(uuid, { quantity: Math.min(MAX_QUANTITY, Math.max(1, (quantity || 0) + by)) });
  // antd's own step arrows are named in English (Increase Value): ours, named in Chinese, instead.
  return (
    <span className="works-stepper">
      <button type="button" className="works-icon-button" aria-label="减少数量" disabled={!quantity || quantity <= 1} onClick={() => step(-1)}>
        <MinusOutlined />
      </button>
      <InputNumber
        size="small"
        aria-label="订购数量"
        controls={false}
        min={1}
        max={MAX_QUANTITY}
        precision={0}
        style={{ width: 66 }}
        // 0 is the empty field: the submit check names it (文件的订购数量必须大于0).
        value={quantity ? quantity : null}
        onChange={(v) => updateWork(uuid, { quantity: typeof v === 'number' ? v : 0 })}
      />
      <button type="button" className="works-icon-button" aria-label="增加数量" disabled={(quantity ?? 0) >= MAX_QUANTITY} onClick={() => step(1)}>
        <PlusOutlined />
      </button>
    </span>
  );
});

export const ProductNameCell = memo(function ProductNameCell({ uuid }: { uuid: string }) {
  const name = useRowField(uuid, (r) => r.productName ?? null);
  return name ? <span>{name}</span> : <span className="works-muted">未选择产品</span>;
});

/** The SKU's option text, one option per line (`相纸:光面;边框:无边框`). */
export const ProductDetailsCell = memo(function ProductDetailsCell({ uuid }: { uuid: string }) {
  const sku = useRowField(uuid, (r) => r.sku ?? null);
  const lines = (sku ?? '')
    .split(/[;；]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (lines.length === 0) return dash;
  return (
    <div className="works-stack works-small">
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
    </div>
  );
});

/** The sizes of a work's files as measured (images at their density, PDF pages). */
function measuredSizes(files: WorkRow['files']): SizeTally {
  const tally = new SizeTally();
  for (const f of files) {
    if (f.dpi !== null) tally.image(f.width, f.height, f.dpi);
    else if (f.pages > 0) tally.pdfPage(f.width, f.height, f.pages);
  }
  return tally;
}

/**
 * 文件尺寸: the files' measured sizes before a product is chosen, each component's size after; a work that
 * fails its check shows its files' sizes under them too (the components' alone read as if the files had them).
 */
export const FileSizeCell = memo(function FileSizeCell({ uuid }: { uuid: string }) {
  const components = useRowField(uuid, (r) => r.components ?? null);
  const files = useRowField(uuid, (r) => r.files);
  const failed = useRowField(uuid, (r) => r.state === 'abnormal');
  if (!components || components.length === 0) {
    if (!files?.length) return dash;
    const tally = measuredSizes(files);
    return tally.counts.size === 0 ? dash : <SizesList tally={tally} testId="measured-size" />;
  }
  const actual = failed && files?.length ? measuredSizes(files) : null;
  return (
    <div className="works-stack works-small">
      {components.map((c) => (
        <span key={`${c.componentName}-${c.width}-${c.height}`} className="works-ellipsis">
          {c.componentName} {c.width}×{c.height}mm{c.count > 1 ? ` ×${c.count}` : ''}
        </span>
      ))}
      {actual && actual.counts.size > 0 && (
        // Cut at the cell's edge, whole in its title: at 1366 px it ran over 页数 and 加页数 (LAN walk).
        <span className="works-muted works-ellipsis" data-testid="actual-size"
          title={`实际 ${actual.mmSizes().join('、')}`}>
          实际 {actual.mmSizes().slice(0, 2).join('、')}
          {actual.counts.size > 2 ? ` 等${actual.counts.size}种` : ''}
        </span>
      )}
    </div>
  );
});

export const PageCountCell = memo(function PageCountCell({ uuid }: { uuid: string }) {
  const v = useRowField(uuid, (r) => r.pageCount ?? null);
  return v == null ? dash : <span>{v}</span>;
});

/** 加页数 only for products that price extra pages (the check's answer says what the price counts). */
export const AddPageCell = memo(function AddPageCell({ uuid }: { uuid: string }) {
  const v = useRowField(uuid, (r) => {
    const basis = (r.checkResult && 'priceBasis' in r.checkResult ? r.checkResult.priceBasis : undefined) ?? r.priceBasis ?? undefined;
    return basis === undefined || basis === 'copy' ? (r.addPageNum ?? null) : null;
  });
  return v == null ? dash : <span>{v}</span>;
});

export const StateCell = memo(function StateCell({ uuid }: { uuid: string }) {
  const state = useRowField(uuid, (r) => r.state);
  if (!state) return null;
  const label = STATE_LABEL[state];
  return (
    <span style={label.color ? { color: label.color } : undefined} data-state={state} data-testid="work-state">
      {label.text}
    </span>
  );
});

export const ToningCell = memo(function ToningCell({ uuid }: { uuid: string }) {
  const toning = useRowField(uuid, (r) => r.toning ?? 'None');
  // The SKU says whether its toning may be switched; before a product is chosen there is nothing to switch.
  const switchable = useRowField(uuid, (r) => r.productId != null && r.customToning !== false);
  const ready = useControlsReady();
  const { updateWork } = useBatch();
  if (!ready) {
    const classes = ['works-ph-switch', toning === 'Manual' && 'works-ph-on', !switchable && 'works-ph-disabled'];
    return <span className={classes.filter(Boolean).join(' ')} aria-hidden />;
  }
  return (
    <Switch
      size="small"
      aria-label="调色"
      disabled={!switchable}
      checked={toning === 'Manual'}
      onChange={(on) => updateWork(uuid, { toning: on ? 'Manual' : 'None' })}
    />
  );
});
