import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/external-store.ts';
import { createBatch, type Batch } from './batch.ts';
import type { CheckEntriesState } from './check-entries.ts';
import type { PreflightState } from './preflight.ts';
import type { UploadState } from './uploads.ts';
import type { WorksState } from './works.ts';

const BatchContext = createContext<Batch | null>(null);

/** Makes the batch of the pages below it, once, when it mounts. */
export function BatchProvider({ children, batch }: { children: ReactNode; batch?: Batch }) {
  const [value] = useState(() => batch ?? createBatch());
  return <BatchContext value={value}>{children}</BatchContext>;
}

/** The batch of the page: its state and its commands. */
export function useBatch(): Batch {
  const batch = useContext(BatchContext);
  if (!batch) throw new Error('useBatch needs a BatchProvider above it');
  return batch;
}

export function useWorks<T>(selector: (state: WorksState) => T, equal?: (a: T, b: T) => boolean): T {
  return useStore(useBatch().worksStore, selector, equal);
}

export function useCheckEntries<T>(selector: (state: CheckEntriesState) => T, equal?: (a: T, b: T) => boolean): T {
  return useStore(useBatch().checkEntriesStore, selector, equal);
}

export function useUploadState<T>(selector: (state: UploadState) => T, equal?: (a: T, b: T) => boolean): T {
  return useStore(useBatch().uploadStore, selector, equal);
}

export function usePreflight<T>(selector: (state: PreflightState) => T, equal?: (a: T, b: T) => boolean): T {
  return useStore(useBatch().preflightStore, selector, equal);
}
