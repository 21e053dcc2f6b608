/**
 * The public entry of features/triage: 文件问题汇总 (issue #20 item 1), the batch's failing and warned
 * files by cause and size of the miss, and the order table's filter to a group. Other features and
 * app/ import only this.
 */
export { TriageFilterBar } from './components/TriageFilterBar.tsx';
export { TriagePanel, type TriagePanelProps } from './components/TriagePanel.tsx';
export { useTriageFilter, useTriageGroups } from './hooks.ts';
export { chooseTriageGroup, revealTriage } from './state.ts';
