/**
 * The public entry of features/bulk-fix (issue #20 item 2): 裁切填充, 留白适配, 旋转, 批量确认使用 and 删除
 * for many files at once, with a sample before applying, progress, and undo. Other features and app/
 * import only this.
 * - BulkFixButton: 批量修复 for the order table's checked rows;
 * - BulkFixActions: the fixes of a list of files (the triage's groups mount it per group);
 * - openBulkFixForWorks: opens the dialog for a selection of works;
 * - BulkFixHost: the dialog, rendered once by the page;
 * - UndoFixButton: 撤销修复 of one fixed file (文件详情 shows it through the page).
 */
export { BulkFixActions } from './components/BulkFixActions.tsx';
export { BulkFixButton, openBulkFixForWorks } from './components/BulkFixButton.tsx';
export { BulkFixHost } from './components/BulkFixHost.tsx';
export { UndoFixButton } from './components/UndoFixButton.tsx';
export { openBulkFix, closeBulkFix } from './dialog.ts';
export { targetsOf, type FixTarget } from './lib/targets.ts';
