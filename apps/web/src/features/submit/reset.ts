/**
 * 重置 (../shared/spec/product-spec.md §2): the page starts again. Rows go first, so the file check forgets their
 * entries quietly (no "choose the product again" warnings); removing the upload entries then
 * cancels what is still being sent or parsed (the upload feature's removal listener), and the
 * upload store forgets the rest.
 */
import { endAddressEdits } from '../address/index.ts';
import type { Batch } from '../batch/index.ts';

export function resetBatch(batch: Batch): void {
  const { checkEntriesStore, clearUnsupportedNotices, clearWorks, removeCheckEntries, removeUploadItems, uploadStore } = batch;
  clearWorks();
  endAddressEdits();
  removeCheckEntries(checkEntriesStore.getState().ids);
  removeUploadItems(Object.keys(uploadStore.getState().items));
  clearUnsupportedNotices();
}
