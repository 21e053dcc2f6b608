/**
 * The preflight of picked files (issue #21 item 1): what the browser measured of each item of a pick
 * before its bytes reach the server, shown in the order table as a provisional row (预检) until the
 * item's parse brings the server's rows, which replace it. The server's measurement stays the
 * authority; these rows are not works (no product, no order, not kept by the draft).
 *
 * Invariants: `keys` holds each item key of `items` once, in pick order; an item leaves when its parse
 * has answered (success or failure) or its entry is removed; a measure names a file of an item present.
 */
import type { ImageMeasure } from '@portal/measure';
import { createStore, type Store } from '../../lib/external-store.ts';

export interface PreflightFile {
  id: string;
  relativePath: string;
  /** Images only; undefined while the worker reads it, null when its header gave no size (the server judges it). */
  measure?: ImageMeasure | null;
  /** A PDF or a zip: not measured in the browser (pages come from the server's parse). */
  unmeasured?: boolean;
}

export interface PreflightItem {
  key: string;
  name: string;
  isFolder: boolean;
  files: readonly PreflightFile[];
}

export interface PreflightState {
  keys: readonly string[];
  items: Readonly<Record<string, PreflightItem>>;
}

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

  function setPreflightMeasures(results: ReadonlyArray<{ id: string; measure: ImageMeasure | null }>): void {
    store.setState((s) => {
      const byItem = new Map<string, Map<string, ImageMeasure | null>>();
      for (const r of results) {
        const key = itemOf.get(r.id);
        if (!key || !s.items[key]) continue;
        const m = byItem.get(key) ?? new Map<string, ImageMeasure | null>();
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

  return { preflightStore: store, addPreflightItems, setPreflightMeasures, removePreflightItems };
}
