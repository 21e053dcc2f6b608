import type { WorkState } from '@portal/contract/enums';
import { EditOutlined } from '@ant-design/icons';
import { Button, Flex, InputNumber, Switch, Typography } from 'antd';
import { memo } from 'react';
import { ELLIPSIS } from '../../../lib/styles.ts';
import { rowByUuid, updateWork, useWorks, type WorkRow } from '../store.ts';

/**
 * The cells of the order table. Each subscribes to the one field it shows, by uuid, so a change
 * to one row (a keystroke in 订购数量) re-renders that row's cell and nothing else; the table
 * itself re-renders only when rows come, go or are selected.
 */
function useRowField<T>(uuid: string, pick: (row: WorkRow) => T): T | undefined {
  return useWorks((s) => {
    const row = rowByUuid(s, uuid);
    return row ? pick(row) : undefined;
  });
}

const dash = <Typography.Text type="secondary">—</Typography.Text>;

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
    <Flex vertical gap={0} style={{ minWidth: 0 }}>
      <Flex align="center" gap={2} wrap={false} style={{ minWidth: 0 }}>
        {name ? (
          // CSS ellipsis, not Typography's: that one measures each cell, which costs frames while scrolling.
          <Typography.Text title={name} style={ELLIPSIS} data-testid="work-name">
            {name}
          </Typography.Text>
        ) : (
          <Typography.Text type="danger" data-testid="work-name">
            （未命名）
          </Typography.Text>
        )}
        <Button type="text" size="small" aria-label="修改作品名称" title="修改作品名称" icon={<EditOutlined />} onClick={() => onRename(uuid)} />
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {files}个文件
      </Typography.Text>
    </Flex>
  );
});

export const QuantityCell = memo(function QuantityCell({ uuid }: { uuid: string }) {
  const quantity = useRowField(uuid, (r) => r.quantity);
  return (
    <InputNumber
      size="small"
      aria-label="订购数量"
      min={1}
      max={99999}
      precision={0}
      style={{ width: 88 }}
      // 0 is the empty field: the submit check names it (文件的订购数量必须大于0).
      value={quantity ? quantity : null}
      onChange={(v) => updateWork(uuid, { quantity: typeof v === 'number' ? v : 0 })}
    />
  );
});

export const ProductNameCell = memo(function ProductNameCell({ uuid }: { uuid: string }) {
  const name = useRowField(uuid, (r) => r.productName ?? null);
  return name ? <Typography.Text>{name}</Typography.Text> : <Typography.Text type="secondary">未选择产品</Typography.Text>;
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
    <Flex vertical gap={0}>
      {lines.map((line) => (
        <Typography.Text key={line} style={{ fontSize: 12 }}>
          {line}
        </Typography.Text>
      ))}
    </Flex>
  );
});

/** Per component: name, width × height (mm) and how many files it has. */
export const FileSizeCell = memo(function FileSizeCell({ uuid }: { uuid: string }) {
  const components = useRowField(uuid, (r) => r.components ?? null);
  if (!components || components.length === 0) return dash;
  return (
    <Flex vertical gap={0}>
      {components.map((c) => (
        <Typography.Text key={`${c.componentName}-${c.width}-${c.height}`} style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {c.componentName} {c.width}×{c.height}mm{c.count > 1 ? ` ×${c.count}` : ''}
        </Typography.Text>
      ))}
    </Flex>
  );
});

export const PageCountCell = memo(function PageCountCell({ uuid }: { uuid: string }) {
  const v = useRowField(uuid, (r) => r.pageCount ?? null);
  return v == null ? dash : <span>{v}</span>;
});

export const AddPageCell = memo(function AddPageCell({ uuid }: { uuid: string }) {
  const v = useRowField(uuid, (r) => r.addPageNum ?? null);
  return v == null ? dash : <span>{v}</span>;
});

export const StateCell = memo(function StateCell({ uuid }: { uuid: string }) {
  const state = useRowField(uuid, (r) => r.state);
  if (!state) return null;
  const label = STATE_LABEL[state];
  return (
    <Typography.Text style={label.color ? { color: label.color } : undefined} data-state={state} data-testid="work-state">
      {label.text}
    </Typography.Text>
  );
});

export const ToningCell = memo(function ToningCell({ uuid }: { uuid: string }) {
  const toning = useRowField(uuid, (r) => r.toning ?? 'None');
  // The SKU says whether its toning may be switched; before a product is chosen there is nothing to switch.
  const switchable = useRowField(uuid, (r) => r.productId != null && r.customToning !== false);
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
