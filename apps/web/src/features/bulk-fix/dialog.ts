/**
 * Whether the bulk-fix dialog is open and for which files, outside React: the order table's 批量修复
 * button, the triage's groups (BulkFixActions) and openBulkFixForWorks open it; BulkFixHost renders it.
 */
import type { FixKind } from '@portal/contract/bulk-fix';
import { createStore, useStore } from '../../lib/external-store.ts';
import type { FixTarget } from './lib/targets.ts';

export interface BulkFixDialogState {
  open?: { targets: readonly FixTarget[]; onDone?: () => void };
}

export const bulkFixDialog = createStore<BulkFixDialogState>({}, { notify: 'sync' });
export const useBulkFixDialog = <T,>(selector: (s: BulkFixDialogState) => T): T => useStore(bulkFixDialog, selector);

/** Opens the dialog for these files; `kind` chooses one fix for all of them (where it applies). */
export function openBulkFix(targets: readonly FixTarget[], o: { kind?: FixKind; onDone?: () => void } = {}): void {
  const chosen = o.kind ? targets.map((t) => ({ ...t, kind: t.kinds.includes(o.kind!) ? o.kind! : null })) : targets;
  bulkFixDialog.setState({ open: { targets: chosen, onDone: o.onDone } });
}

export function closeBulkFix(): void {
  bulkFixDialog.setState({});
}
