import { MSG } from '@portal/contract/messages';
import { App, Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useBatch, useWorks, type WorkRow } from '../../batch/index.ts';
import { isPdfWork } from '../lib/pdf.ts';

// dnd-kit is loaded with the dialog, the first time a customer sorts.
const PhotoSortDialog = lazy(async () => ({ default: (await import('./PhotoSortDialog.tsx')).PhotoSortDialog }));

export interface SortPhotosButtonProps {
  /** Called when images left the work: it must be checked again (the file check's recheck). */
  onRecheck?: (workUuid: string) => void;
}

/** 排序: shown only when exactly one row is checked and that work is matched (../shared/spec/product-spec.md §2). */
export function SortPhotosButton({ onRecheck }: SortPhotosButtonProps) {
  const { message } = App.useApp();
  const { updateWork } = useBatch();
  const selected = useWorks((s) => (s.selectedKeys.length === 1 ? s.rows.find((r) => r.uuid === s.selectedKeys[0]) : undefined));
  const [sorting, setSorting] = useState<WorkRow | undefined>();

  return (
    <>
      {selected?.state === 'match' && (
        <Button
          onClick={() => {
            if (isPdfWork(selected)) void message.warning(MSG.pdfCannotSort);
            else setSorting(selected);
          }}
        >
          排序
        </Button>
      )}
      {sorting && (
        <Suspense fallback={null}>
          <PhotoSortDialog
            work={sorting}
            onClose={() => setSorting(undefined)}
            onSaved={(answer) => {
              const uuid = sorting.uuid;
              setSorting(undefined);
              const { files, pageCount, removed } = answer.message;
              // Fewer files is another work for the server (unmatch until checked again).
              updateWork(uuid, { files, pageCount, ...(removed.length > 0 ? { state: 'unmatch' as const } : {}) });
              if (removed.length > 0) onRecheck?.(uuid);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
