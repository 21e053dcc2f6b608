/**
 * A door for the end-to-end tests and the bench: `window.__portalTest` fills the order table with
 * synthetic rows, to measure the table with 2,000 works without uploading 2,000 files. It is
 * compiled only into the dev server's pages and the e2e build (`vite build --mode e2e`, apps/web/dist-e2e),
 * never into the production build; there it is installed only in development, or when the page was
 * opened with `?portalTest` (remembered for the tab in sessionStorage); it writes nothing but this
 * browser tab's own state.
 */
import type { Batch, WorkRow } from '../../batch/index.ts';

export interface PortalTestHook {
  addWorks(rows: WorkRow[]): number;
  clearWorks(): void;
  rowCount(): number;
}

declare global {
  interface Window {
    __portalTest?: PortalTestHook;
  }
}

const FLAG = 'portalTest';

function wanted(): boolean {
  if (import.meta.env.DEV) return true;
  try {
    if (new URLSearchParams(window.location.search).has(FLAG)) sessionStorage.setItem(FLAG, '1');
    return sessionStorage.getItem(FLAG) === '1';
  } catch {
    return false;
  }
}

/** Opens the door on `batch`, the page's batch (features/batch). */
export function installTestHook(batch: Batch): void {
  if (!wanted()) return;
  window.__portalTest = {
    addWorks(rows) {
      batch.addWorks(rows);
      return batch.worksStore.getState().rows.length;
    },
    clearWorks: batch.clearWorks,
    rowCount: () => batch.worksStore.getState().rows.length,
  };
}
