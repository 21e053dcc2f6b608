import type { CSSProperties } from 'react';

/** One line of text that ends in … when its box is too narrow (the full text goes in `title`). */
export const ELLIPSIS: CSSProperties = { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/**
 * A dialog whose body scrolls while its title and footer (返回, 确定, 应用修复) stay in the window: at 1280×720
 * 文件详情 (733 px), 商品详情 of a brochure (760 px) and 批量修复 with its samples put their buttons below the fold
 * (LAN walks, 2026-11-30). Use with `style={DIALOG_TOP}` so that the dialog starts near the top.
 */
export const SCROLLING_DIALOG = { body: { maxHeight: 'calc(100vh - 180px)', overflowY: 'auto' } } as const;
export const DIALOG_TOP: CSSProperties = { top: 24 };
