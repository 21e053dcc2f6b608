import type { CSSProperties } from 'react';

/** One line of text that ends in … when its box is too narrow (the full text goes in `title`). */
export const ELLIPSIS: CSSProperties = { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };
