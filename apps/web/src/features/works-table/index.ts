/**
 * The public entry of features/works-table: The order table: its rows (the batch's works), their
 * actions, the footer's totals. Other features and app/ import only this.
 */
export { pathOfPreview, usePreviewImages } from './api/preview-images.ts';
export { WorksFooter } from './components/WorksFooter.tsx';
export { WorksTable } from './components/WorksTable.tsx';
export { installTestHook } from './components/test-hook.ts';
export { computeTotals } from './lib/totals.ts';
