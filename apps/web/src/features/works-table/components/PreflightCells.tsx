import { pxToMm } from '@portal/contract/rules';
import { memo } from 'react';
import { usePreflight, type PreflightItem } from '../../batch/index.ts';

/**
 * The cells of a preflight row (features/batch/preflight.ts): an item of a pick whose bytes are still
 * on their way, with what the browser measured of its images. The server's rows replace it when the
 * item's parse answers.
 */

export const PREFLIGHT_PREFIX = 'preflight:';
export const isPreflightRow = (uuid: string) => uuid.startsWith(PREFLIGHT_PREFIX);
const keyOf = (uuid: string) => uuid.slice(PREFLIGHT_PREFIX.length);

function useItem(uuid: string): PreflightItem | undefined {
  return usePreflight((s) => s.items[keyOf(uuid)]);
}

const SIZES_LISTED = 3;
const r1 = (n: number) => Math.round(n * 10) / 10;

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

/** Each size met among the item's images, in mm at its stated density, with its pixels and dpi. */
export const PreflightSizeCell = memo(function PreflightSizeCell({ uuid }: { uuid: string }) {
  const item = useItem(uuid);
  if (!item) return null;
  const sizes = new Map<string, number>();
  let waiting = 0;
  for (const f of item.files) {
    if (f.unmeasured || f.measure === null) continue;
    if (!f.measure) {
      waiting++;
      continue;
    }
    const { width, height, dpi } = f.measure;
    const text = `${r1(pxToMm(width, dpi))}×${r1(pxToMm(height, dpi))}mm|${width}×${height}px ${dpi}dpi`;
    sizes.set(text, (sizes.get(text) ?? 0) + 1);
  }
  const listed = [...sizes].slice(0, SIZES_LISTED);
  return (
    <div className="works-stack works-small" data-testid="preflight-size">
      {listed.map(([text, n]) => {
        const [mm, px] = text.split('|');
        return (
          <span key={text} className="works-stack">
            <span style={{ whiteSpace: 'nowrap' }}>
              {mm}
              {n > 1 ? ` ×${n}` : ''}
            </span>
            <span className="works-muted" style={{ whiteSpace: 'nowrap' }}>
              {px}
            </span>
          </span>
        );
      })}
      {sizes.size > SIZES_LISTED ? <span className="works-muted">等{sizes.size}种尺寸</span> : null}
      {waiting > 0 ? <span className="works-muted">测量中…</span> : null}
    </div>
  );
});

/** Each image is a page; a PDF's pages come with the server's parse. */
export const PreflightPagesCell = memo(function PreflightPagesCell({ uuid }: { uuid: string }) {
  const pages = usePreflight((s) => {
    const item = s.items[keyOf(uuid)];
    return item && !item.files.some((f) => f.unmeasured) ? item.files.length : null;
  });
  return pages == null ? <span className="works-muted">—</span> : <span>{pages}</span>;
});

export function PreflightStateCell() {
  return (
    <span className="works-muted" data-state="preflight" data-testid="preflight-state" title="浏览器预检，上传完成后以服务器校验为准">
      预检
    </span>
  );
}
