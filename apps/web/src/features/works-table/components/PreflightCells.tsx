import { Button } from 'antd';
import { memo } from 'react';
import { isPreflightKey, PREFLIGHT_PREFIX, preflightVerdict, usePreflight, type PreflightItem } from '../../batch/index.ts';
import { STATE_LABEL } from './cells.tsx';
import { SizeTally, SizesList } from './SizesList.tsx';

/**
 * The cells of a preflight row (features/batch/preflight.ts): an item of a pick whose bytes are still
 * on their way, with what the browser measured of its images. The server's rows replace it when the
 * item's parse answers.
 */

export { PREFLIGHT_PREFIX };
export const isPreflightRow = isPreflightKey;
const keyOf = (uuid: string) => uuid.slice(PREFLIGHT_PREFIX.length);

function useItem(uuid: string): PreflightItem | undefined {
  return usePreflight((s) => s.items[keyOf(uuid)]);
}

export const PreflightNameCell = memo(function PreflightNameCell({ uuid }: { uuid: string }) {
  const item = useItem(uuid);
  if (!item) return null;
  const name = item.isFolder ? item.name : item.name.replace(/\.[^.]+$/, '');
  return (
    <div className="works-stack">
      <span className="works-ellipsis" title={name} data-testid="preflight-name">
        {name}
      </span>
      <span className="works-muted works-small">{item.files.length}个文件</span>
    </div>
  );
});

/**
 * Each size met among the item's images (in mm at its stated density, with its pixels and dpi) and its
 * PDFs' pages (in mm, after /Rotate, with the page count of the PDF).
 */
export const PreflightSizeCell = memo(function PreflightSizeCell({ uuid }: { uuid: string }) {
  const item = useItem(uuid);
  if (!item) return null;
  const tally = new SizeTally();
  for (const f of item.files) {
    if (f.unmeasured || f.measure === null) continue;
    if (!f.measure) tally.waiting++;
    else if (f.measure.format === 'pdf') for (const p of f.measure.pageSizes) tally.pdfPage(p.widthMm, p.heightMm, f.measure.pages);
    else tally.image(f.measure.width, f.measure.height, f.measure.dpi);
  }
  return <SizesList tally={tally} testId="preflight-size" />;
});

/** Each image is a page, a PDF its pages once measured; a zip's pages come with the server's parse. */
export const PreflightPagesCell = memo(function PreflightPagesCell({ uuid }: { uuid: string }) {
  const pages = usePreflight((s) => {
    const item = s.items[keyOf(uuid)];
    if (!item) return null;
    let n = 0;
    for (const f of item.files) {
      if (f.unmeasured) return null;
      if (!/\.pdf$/i.test(f.relativePath)) n++;
      else if (f.measure?.format === 'pdf') n += f.measure.pages;
      else return null;
    }
    return n;
  });
  return pages == null ? <span className="works-muted">—</span> : <span data-testid="preflight-pages">{pages}</span>;
});

export const PreflightProductCell = memo(function PreflightProductCell({ uuid }: { uuid: string }) {
  const name = usePreflight((s) => s.items[keyOf(uuid)]?.choice?.product.productName ?? null);
  return name ? <span>{name}</span> : <span className="works-muted">未选择产品</span>;
});

const SERVER_JUDGES = '浏览器预检，上传完成后以服务器校验为准';

/**
 * 预检 until a SKU is chosen; then the provisional verdict by the server's rules (预检：已匹配, …), its
 * reasons in the title. The server's check replaces it when the item's works come.
 */
export const PreflightStateCell = memo(function PreflightStateCell({ uuid }: { uuid: string }) {
  const verdict = usePreflight(
    (s) => {
      const item = s.items[keyOf(uuid)];
      if (!item) return 'none';
      const v = preflightVerdict(item);
      return 'messages' in v ? `${v.state}|${v.messages.join('；')}` : v.state;
    },
  );
  const [state, reasons] = verdict.split('|');
  const label = state && state in STATE_LABEL ? STATE_LABEL[state as keyof typeof STATE_LABEL] : undefined;
  const text = label ? `预检：${label.text}` : state === 'measuring' ? '预检中' : state === 'server' ? '预检：待服务器校验' : '预检';
  return (
    <span
      className={label ? undefined : 'works-muted'}
      style={label?.color ? { color: label.color } : undefined}
      data-state={`preflight-${state}`}
      data-testid="preflight-state"
      title={reasons ? `${reasons}（${SERVER_JUDGES}）` : SERVER_JUDGES}
    >
      {text}
    </span>
  );
});

/** 选择产品 for an item still uploading: its provisional verdict comes at once, the server's with its works. */
export function PreflightActions({ uuid, onChoose }: { uuid: string; onChoose?: (uuid: string) => void }) {
  return (
    <Button type="link" size="small" disabled={!onChoose} onClick={() => onChoose?.(uuid)}>
      选择产品
    </Button>
  );
}
