import { Flex, Typography } from 'antd';
import { fitGeometry, percentText, type Rect, type Size, type Standard } from '../lib/geometry.ts';

export interface FitDrawingProps {
  /** The file's size in mm (a file check row's width and height). */
  file: Size;
  /** The component's size and print rules (a file check row's component); null: 未定义, nothing to draw. */
  standard: Standard | null;
  /** Width of the drawing on screen, px. */
  width?: number;
  /** Under the drawing: the legend and the cut share, the cut share alone, or nothing. */
  caption?: 'legend' | 'share' | false;
}

const rectPath = (r: Rect) => `M${r.x} ${r.y}h${r.width}v${r.height}h${-r.width}z`;
const r1 = (n: number) => Math.round(n * 10) / 10;

const COLOURS = { band: 'rgba(82,196,26,0.22)', trim: '#262626', file: '#1677ff', cut: 'rgba(255,77,79,0.35)' };

/**
 * A file drawn over its required size (issue #20 item 4): the trim outline, the tolerance band (green:
 * a file whose edges fall in it passes), the file to scale (blue), turned (dashed) where automatic
 * orientation applies, and shaded red what 裁切填充 would cut away, with its share.
 */
export function FitDrawing({ file, standard, width = 180, caption = 'legend' }: FitDrawingProps) {
  const g = standard ? fitGeometry(file, standard) : null;
  if (!g || !standard) return null;
  const height = (width * g.viewBox.height) / g.viewBox.width;
  const cut = percentText(g.cutShare);
  const label = `文件${r1(file.width)}×${r1(file.height)}mm，标准${standard.width}×${standard.height}mm，裁切填充将裁掉${cut}`;
  return (
    <Flex vertical gap={2} style={{ width }} data-testid="fit-drawing" data-cut-share={cut}>
      <svg
        role="img"
        aria-label={label}
        width={width}
        height={height}
        viewBox={`${g.viewBox.x} ${g.viewBox.y} ${g.viewBox.width} ${g.viewBox.height}`}
        style={{ background: '#fafafa', border: '1px solid #f0f0f0' }}
      >
        <title>{label}</title>
        <path d={`${rectPath(g.cover)}${rectPath(g.trim)}`} fillRule="evenodd" fill={COLOURS.cut} data-shape="cut" />
        <path d={`${rectPath(g.outer)}${rectPath(g.inner)}`} fillRule="evenodd" fill={COLOURS.band} data-shape="band" />
        <path d={rectPath(g.trim)} fill="none" stroke={COLOURS.trim} strokeWidth={1.2} vectorEffect="non-scaling-stroke" data-shape="trim" />
        <path d={rectPath(g.file)} fill="none" stroke={COLOURS.file} strokeWidth={1.5} vectorEffect="non-scaling-stroke" data-shape="file" />
        {g.turned && (
          <path d={rectPath(g.turned)} fill="none" stroke={COLOURS.file} strokeWidth={1.2} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" data-shape="turned" />
        )}
      </svg>
      {caption === 'share' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {/* A file of the size itself loses nothing: it read 裁切填充裁掉 0.0% on a passing row (LAN walk, 2026-11-30). */}
          {cut === percentText(0) ? '无需裁切' : `裁切填充裁掉 ${cut}`}
        </Typography.Text>
      )}
      {caption === 'legend' && (
        <Typography.Text type="secondary" style={{ fontSize: 12, lineHeight: 1.4 }}>
          <span style={{ color: COLOURS.file }}>■</span> 文件 <span style={{ color: '#52c41a' }}>■</span> 允许误差{' '}
          {g.turned ? '（虚线：横竖互换）' : ''}
          <br />
          裁切填充将裁掉 <b>{cut}</b>
        </Typography.Text>
      )}
    </Flex>
  );
}
