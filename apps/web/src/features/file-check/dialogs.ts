/**
 * Which of the file check's dialogs is open, outside React, so the page's buttons, the table's row
 * actions and the entries' actions can open them without props threaded through. FileCheckHost
 * renders them.
 */
import { createStore, useStore } from '../../lib/external-store.ts';

export interface FileCheckDialogs {
  /** 选择产品 / 重选产品: the works the chosen SKU is for. */
  chooser?: { uuids: readonly string[]; initial?: { productId: number; propertyConfigId: number } };
  /** 文件详情 of a work. */
  detail?: { workUuid: string };
}

export const fileCheckDialogs = createStore<FileCheckDialogs>({}, { notify: 'sync' });

export function useFileCheckDialogs<T>(selector: (s: FileCheckDialogs) => T): T {
  return useStore(fileCheckDialogs, selector);
}

export function openProductChooser(uuids: readonly string[], initial?: { productId: number; propertyConfigId: number }): void {
  fileCheckDialogs.setState((s) => ({ ...s, chooser: { uuids, initial } }));
}

export function closeProductChooser(): void {
  fileCheckDialogs.setState((s) => ({ ...s, chooser: undefined }));
}

export function openFileDetail(workUuid: string): void {
  fileCheckDialogs.setState((s) => ({ ...s, detail: { workUuid } }));
}

export function closeFileDetail(): void {
  fileCheckDialogs.setState((s) => ({ ...s, detail: undefined }));
}
