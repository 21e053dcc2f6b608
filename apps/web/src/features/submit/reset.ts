/**
 * 重置 (product-spec §2): the page starts again. Rows go first, so the file check forgets their
 * entries quietly (no "choose the product again" warnings); removing the upload entries then
 * cancels what is still being sent or parsed (the upload feature's removal listener), and the
 * upload store forgets the rest.
 */
import { endAddressEdits } from '../address/edits.ts';
import { checkEntriesStore, removeCheckEntries } from '../upload/check-entries.ts';
import { clearUnsupportedNotices, removeUploadItems, uploadStore } from '../upload/store.ts';
import { clearWorks } from '../works-table/store.ts';

export function resetBatch(): void {
  clearWorks();
  endAddressEdits();
  removeCheckEntries(checkEntriesStore.getState().ids);
  removeUploadItems(Object.keys(uploadStore.getState().items));
  clearUnsupportedNotices();
}
