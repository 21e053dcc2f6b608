/**
 * The public entry of features/file-check: Product choice and the file check of works: 选择产品, re-
 * checks, 文件详情, the check entries' actions. Other features and app/ import only this.
 */
export { checkFlowOf } from './check-works.ts';
export { renderCheckEntryActions } from './components/CheckEntryActions.tsx';
export { FileCheckHost } from './components/FileCheckHost.tsx';
export type { FileActionsRenderer } from './components/FileDetailDialog.tsx';
export { SelectProductButton, chooseProductForPreflight, reselectProduct } from './components/SelectProductButton.tsx';
export { CheckProgressBar } from './components/CheckProgressBar.tsx';
export type { CheckProgress } from './check-works.ts';
