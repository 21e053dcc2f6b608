/**
 * 重置 (product-spec §2): the page starts again. Rows go first, so the file check forgets their
 * entries quietly (no "choose the product again" warnings); removing the upload entries then
 * cancels what is still being sent or parsed (the upload feature's removal listener), and the
 * upload store forgets the rest.
 */
import { endAddressEdits } from '../address/index.ts';
import { checkEntriesStore, removeCheckEntries, clearUnsupportedNotices, removeUploadItems, uploadStore } from '../upload/index.ts';
import { clearWorks } from '../works-table/index.ts';

export function resetBatch(): void {
  clearWorks();
  endAddressEdits();
  removeCheckEntries(checkEntriesStore.getState().ids);
  removeUploadItems(Object.keys(uploadStore.getState().items));
  clearUnsupportedNotices();
}
