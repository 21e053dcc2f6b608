import { createContext } from 'react';

/** The upload area's pickers, for 重新选择 on a restored upload's entry (CheckEntryList). */
export const RepickContext = createContext<{ pickFiles(): void; pickFolder(): void } | null>(null);
