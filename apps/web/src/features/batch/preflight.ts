/**
 * The preflight of picked files (issue #21 item 1): what the browser measured of each item of a pick
 * before its bytes reach the server, shown in the order table as a provisional row (预检) until the
 * item's parse brings the server's rows, which replace it. The server's measurement stays the
 * authority; these rows are not works (no product, no order, not kept by the draft). A product chosen on
 * one is kept by the draft with the item's unfinished upload, and its row comes back with it when the
 * upload resumes after a reload (features/upload restoreItems, resumeFiles).
 *
 * Invariants: `keys` holds each item key of `items` once, in pick order; an item leaves when its parse
 * has answered (success or failure) or its entry is removed; a measure names a file of an item present.
 */
import type { WorkState } from '@portal/contract/enums';
import { checkWork, type CheckComponent, type CheckItem, type ImageMeasure, type PageRule } from '@portal/measure';
import type { PdfMeasure } from '@portal/measure/pdf';
import { createStore, type Store } from '../../lib/external-store.ts';
import type { RowPlace, WorkProduct } from './works.ts';

/** The order table's key of an item's preflight row (WorkRow uuids never start so). */
export const PREFLIGHT_PREFIX = 'preflight:';
export const isPreflightKey = (uuid: string) => uuid.startsWith(PREFLIGHT_PREFIX);

/**
 * The SKU chosen for an item still uploading, with what the check needs of it (the product details'
 * components and page rule): the provisional verdict is checked against it, and the item's works get it
 * (and the server's check) when its parse answers.
 */
export interface PreflightChoice {
  product: WorkProduct;
  customerHubId: number;
  components: CheckComponent[];
  pages: PageRule & { check: boolean };
}

/** What the browser's worker measured of a file: an image's header, or a PDF's pages and their sizes. */
export type PreflightMeasure = ImageMeasure | PdfMeasure;

export interface PreflightFile {
  id: string;
  relativePath: string;
  /**
   * Undefined while the worker reads it; null when only the server can tell (a header without a size,
   * an encrypted or damaged PDF, a PDF over the worker's budget).
   */
  measure?: PreflightMeasure | null;
  /** A zip: not measured in the browser (its works come from the server's parse). */
  unmeasured?: boolean;
}

export interface PreflightItem {
  key: string;
  /** Where its works will stand in the order table (its pick, its place in the pick): its row stands there meanwhile. */
  place?: RowPlace;
  name: string;
  isFolder: boolean;
  files: readonly PreflightFile[];
  choice?: PreflightChoice;
}

export interface PreflightState {
  keys: readonly string[];
  items: Readonly<Record<string, PreflightItem>>;
}

/**
 * The provisional verdict of an item against its chosen SKU, by the server's check rules
 * (@portal/measure checkWork) over the browser's measures: 'measuring' until every image is
 * image and PDF is measured, 'server' when only the server can judge (a zip, a header without a size, an
 * encrypted or damaged PDF).
 */
export type PreflightVerdict =
  | { state: 'none' | 'measuring' | 'server' }
  | { state: WorkState; messages: readonly string[] };

export function preflightVerdict(item: PreflightItem): PreflightVerdict {
  const { choice } = item;
  if (!choice) return { state: 'none' };
  if (item.files.some((f) => f.unmeasured || f.measure === null)) return { state: 'server' };
  if (item.files.some((f) => f.measure === undefined)) return { state: 'measuring' };
  const items: CheckItem[] = item.files.flatMap((f): CheckItem[] => {
    const m = f.measure as PreflightMeasure;
    const parts = f.relativePath.split('/');
    // As the server parses a folder: the folder directly below the work may name a component.
    const folderComponent = item.isFolder && parts.length > 2 ? (parts[1] ?? null) : null;
    const base = { filePath: f.relativePath, fileName: parts.at(-1) ?? f.relativePath, folderComponent };
    // As the server's check: one item a page of a PDF.
    if (m.format === 'pdf') return m.pageSizes.map((p, i) => ({ ...base, type: 'pdf', page: i + 1, widthMm: p.widthMm, heightMm: p.heightMm }));
    return [{ ...base, type: 'image', widthPx: m.width, heightPx: m.height, dpi: m.dpi, dpiStated: m.dpiStated }];
  });
  const outcome = checkWork(items, choice.components, choice.pages);
  return { state: outcome.pass ? (outcome.resolutionWarning ? 'dpiAbnormal' : 'match') : 'abnormal', messages: outcome.messages };
}

export type PreflightResolvedListener = (resolved: { workUuids: readonly string[]; choice: PreflightChoice }) => void;

export function createPreflight() {
  const store: Store<PreflightState> = createStore<PreflightState>({ keys: [], items: {} });
  /** Item key of each file id. */
  const itemOf = new Map<string, string>();

  function addPreflightItems(items: readonly PreflightItem[]): void {
    if (items.length === 0) return;
    for (const item of items) for (const f of item.files) itemOf.set(f.id, item.key);
    store.setState((s) => {
      const fresh = items.filter((item) => !s.items[item.key]);
      return { keys: [...s.keys, ...fresh.map((i) => i.key)], items: { ...s.items, ...Object.fromEntries(fresh.map((i) => [i.key, i])) } };
    });
  }

  function setPreflightMeasures(results: ReadonlyArray<{ id: string; measure: PreflightMeasure | null }>): void {
    store.setState((s) => {
      const byItem = new Map<string, Map<string, PreflightMeasure | null>>();
      for (const r of results) {
        const key = itemOf.get(r.id);
        if (!key || !s.items[key]) continue;
        const m = byItem.get(key) ?? new Map<string, PreflightMeasure | null>();
        m.set(r.id, r.measure);
        byItem.set(key, m);
      }
      if (byItem.size === 0) return s;
      const items = { ...s.items };
      for (const [key, measures] of byItem) {
        const item = items[key] as PreflightItem;
        items[key] = { ...item, files: item.files.map((f) => (measures.has(f.id) ? { ...f, measure: measures.get(f.id) ?? null } : f)) };
      }
      return { ...s, items };
    });
  }

  function removePreflightItems(keys: readonly string[]): void {
    const doomed = new Set(keys);
    store.setState((s) => {
      if (!s.keys.some((k) => doomed.has(k))) return s;
      const items = { ...s.items };
      for (const k of doomed) {
        for (const f of items[k]?.files ?? []) itemOf.delete(f.id);
        delete items[k];
      }
      return { keys: s.keys.filter((k) => !doomed.has(k)), items };
    });
  }

  function setPreflightChoice(keys: readonly string[], choice: PreflightChoice): void {
    store.setState((s) => {
      const present = keys.filter((k) => s.items[k]);
      if (present.length === 0) return s;
      const items = { ...s.items };
      for (const k of present) items[k] = { ...(items[k] as PreflightItem), choice };
      return { ...s, items };
    });
  }

  const resolvedListeners = new Set<PreflightResolvedListener>();
  /** Hear when an item with a chosen SKU became works (its parse answered); returns the unsubscribe. */
  function onPreflightResolved(listener: PreflightResolvedListener): () => void {
    resolvedListeners.add(listener);
    return () => resolvedListeners.delete(listener);
  }

  /** The item's parse made these works: its row leaves, and its SKU choice (if any) passes to them. */
  function resolvePreflightItem(key: string, workUuids: readonly string[]): void {
    const choice = store.getState().items[key]?.choice;
    removePreflightItems([key]);
    if (choice && workUuids.length > 0) for (const listener of resolvedListeners) listener({ workUuids, choice });
  }

  return { preflightStore: store, addPreflightItems, setPreflightMeasures, setPreflightChoice, resolvePreflightItem, onPreflightResolved, removePreflightItems };
}
