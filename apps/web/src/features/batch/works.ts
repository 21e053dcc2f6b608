/**
 * The rows of the order table, outside React: the upload appends parsed works, the product
 * picker and the file check update them by uuid, the order reads them. One table per batch
 * (features/batch/batch.ts); components subscribe to slices with `useWorks(selector)`.
 *
 * Invariants: `rows` holds each uuid once; `selectedKeys` only names rows that exist (removing a
 * row unselects it). Rows stand in the order of their place (`addWorks`): picks in the order they
 * were made, the items of a pick in natural order, the works of an item as the server lists them,
 * whichever parse finishes first; rows without a place (a restored draft) come before them.
 *
 * Fields of a row and who writes them:
 * - the upload (parse): uuid, articleName, filePath, fileName, files, quantity, pageCount, state 'unmatch';
 * - the product choice and the file check (features/file-check): productId, productName,
 *   propertyConfigId, sku, toning, customToning when a SKU is chosen; then from the check's answer
 *   state (match | dpiAbnormal | abnormal), pageCount, addPageNum, fileArea, components (one per
 *   component: componentName, width, height in mm, count of files) and checkResult (the answer's
 *   message). Deleting a failed check's entry sets state 'unmatch' and clears pageCount, addPageNum,
 *   fileArea, product, SKU, components and checkResult. 确认使用 of a resolution warning sets 'match'.
 * - the file detail dialog and the photo sort: files (and pageCount) after a re-upload, crop,
 *   delete or new order; 添加文件 swaps the row's uuid for the re-parsed work's (`replaceWork`).
 * - the order table (features/works-table/components): articleName (修改作品名称), quantity, toning;
 *   the address line and 统一设置地址: orderLocations; the batch draft restores whole rows.
 */
import type { CheckFileAnswer, OrderLocation, ParsedWork, ParsedWorkFile } from '@portal/contract/api';
import type { Toning, WorkState } from '@portal/contract/enums';
import { createStore, type Store } from '../../lib/external-store.ts';

/** One row of the order table; grows with product selection, file check and addresses. */
export interface WorkRow {
  uuid: string;
  articleName: string;
  /** The work on the server: a file, or a folder of files (`upload/<folderId>/Book1`). */
  filePath: string;
  fileName: string;
  files: readonly ParsedWorkFile[];
  quantity: number;
  pageCount?: number | null;
  addPageNum?: number | null;
  state: WorkState;

  // --- Set by the product choice and the file check (features/file-check). All null (or absent)
  // until a product is chosen; deleting a failed check's entry clears them again.
  /** The chosen product. */
  productId?: number | null;
  productName?: string | null;
  /** The chosen SKU (the product's PropertyConfig id). */
  propertyConfigId?: number | null;
  /** The SKU's option text: `item:value` pairs separated by semicolons (`相纸:光面;边框:无边框`). */
  sku?: string | null;
  /** Per component met by the check: its standard size in mm and how many of the work's files (or PDF pages) it holds. */
  components?: readonly WorkComponent[] | null;
  /**
   * What the product's price counts, from the check's answer; kept by the batch draft, which drops
   * checkResult. 加页数 shows only for 'copy'.
   */
  priceBasis?: 'print' | 'copy' | 'area' | null;
  /** Sum of the files' areas in m², from the check. */
  fileArea?: number | null;
  /** The last check's answer message (CheckFileAnswer['message']: the passing shape or the failure wrapper). */
  checkResult?: CheckFileAnswer['message'] | null;
  /** Toning of the order line; starts as the SKU's default. */
  toning?: Toning;
  /** Whether the SKU lets the customer switch toning (the 调色 switch). */
  customToning?: boolean | null;

  // --- Set by the address line and 统一设置地址 (hubs with batchAddressParsing; features/address).
  /** Where this work goes; the first is the one the page edits. Absent until an address is saved. */
  orderLocations?: readonly OrderLocation[] | null;
}

/** What choosing a SKU sets on a row. */
export interface WorkProduct {
  productId: number;
  productName: string;
  propertyConfigId: number;
  sku: string;
  toning: Toning;
  customToning: boolean;
}

/** A component of the chosen product as the check met it in a work. */
export interface WorkComponent {
  componentName: string;
  /** mm */
  width: number;
  height: number;
  /** Files (or PDF pages) of the work it holds. */
  count: number;
}

export interface WorksState {
  rows: readonly WorkRow[];
  selectedKeys: readonly string[];
}

export function workRowOf(work: ParsedWork): WorkRow {
  return {
    uuid: work.uuid,
    articleName: work.articleName,
    filePath: work.filePath,
    fileName: work.fileName,
    files: work.files,
    quantity: work.quantity,
    pageCount: work.pageCount,
    addPageNum: null,
    state: work.state,
  };
}

/** Where a row stands: compared number by number; a shorter place that is a prefix comes first. */
export type RowPlace = readonly number[];

export function comparePlaces(a: RowPlace, b: RowPlace): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The works table of one batch and its commands, the only writers of its state. */
export function createWorks() {
  const store: Store<WorksState> = createStore<WorksState>({ rows: [], selectedKeys: [] }, { notify: 'sync' });
  /** The place of each placed row, by uuid; rows absent here have the empty place (first). */
  const places = new Map<string, RowPlace>();

  /**
   * Adds rows; a uuid already present is updated where it stands instead. With a `place`, the new
   * rows go where that place falls among the rows (row i of them at [...place, i]), so the rows of
   * a pick keep the pick's order when the parses of its items finish in another order; without
   * one they are appended.
   */
  function addWorks(rows: readonly WorkRow[], place?: RowPlace): void {
    if (rows.length === 0) return;
    store.setState((s) => {
      const at = new Map(s.rows.map((row, i) => [row.uuid, i]));
      const next = [...s.rows];
      const fresh: WorkRow[] = [];
      for (const row of rows) {
        const i = at.get(row.uuid);
        if (i === undefined) {
          if (!at.has(row.uuid)) fresh.push(row);
          at.set(row.uuid, -1);
        } else if (i >= 0) next[i] = { ...next[i], ...row };
      }
      if (fresh.length === 0) return { ...s, rows: next };
      if (!place) {
        next.push(...fresh);
        return { ...s, rows: next };
      }
      // After the last row whose place is not after ours; looking from the end, as most picks land there.
      let insertAt = next.length;
      while (insertAt > 0 && comparePlaces(places.get((next[insertAt - 1] as WorkRow).uuid) ?? [], place) > 0) insertAt--;
      fresh.forEach((row, i) => places.set(row.uuid, [...place, i]));
      next.splice(insertAt, 0, ...fresh);
      return { ...s, rows: next };
    });
  }

  function updateWork(uuid: string, patch: Partial<Omit<WorkRow, 'uuid'>>): void {
    store.setState((s) => {
      const i = s.rows.findIndex((row) => row.uuid === uuid);
      if (i < 0) return s;
      const rows = [...s.rows];
      rows[i] = { ...(rows[i] as WorkRow), ...patch };
      return { ...s, rows };
    });
  }

  /**
   * The SKU chosen for a work (选择产品, 重选产品), before its check. A new SKU brings its own toning;
   * the same SKU chosen again keeps what the customer set.
   */
  function setProduct(uuid: string, product: WorkProduct): void {
    const row = rowByUuid(store.getState(), uuid);
    if (!row) return;
    const { toning: _toning, customToning: _customToning, ...sku } = product;
    updateWork(uuid, row.propertyConfigId === product.propertyConfigId ? sku : product);
  }

  /**
   * Puts `row` where the row `oldUuid` is, keeping its place and its check mark: the server's work
   * behind a row was replaced by another (添加文件 re-parses the work's folder into a new work).
   */
  function replaceWork(oldUuid: string, row: WorkRow): void {
    store.setState((s) => {
      const i = s.rows.findIndex((r) => r.uuid === oldUuid);
      if (i < 0) return s;
      const rows = s.rows.filter((r, j) => j === i || r.uuid !== row.uuid);
      rows[rows.indexOf(s.rows[i] as WorkRow)] = row;
      const place = places.get(oldUuid);
      places.delete(oldUuid);
      if (place) places.set(row.uuid, place);
      return { rows, selectedKeys: s.selectedKeys.map((k) => (k === oldUuid ? row.uuid : k)).filter((k, j, all) => all.indexOf(k) === j) };
    });
  }

  function removeWorks(uuids: readonly string[]): void {
    const doomed = new Set(uuids);
    for (const uuid of doomed) places.delete(uuid);
    store.setState((s) => {
      if (!s.rows.some((row) => doomed.has(row.uuid))) return s;
      return {
        rows: s.rows.filter((row) => !doomed.has(row.uuid)),
        selectedKeys: s.selectedKeys.filter((key) => !doomed.has(key)),
      };
    });
  }

  function setSelectedWorks(keys: readonly string[]): void {
    store.setState((s) => ({ ...s, selectedKeys: keys }));
  }

  function clearWorks(): void {
    places.clear();
    store.setState({ rows: [], selectedKeys: [] });
  }

  /** One change to many rows at once (统一设置地址): `patchOf` gives a row's patch, or null to leave it as it is. */
  function updateWorks(patchOf: (row: WorkRow) => Partial<Omit<WorkRow, 'uuid'>> | null): void {
    store.setState((s) => {
      let changed = false;
      const rows = s.rows.map((row) => {
        const patch = patchOf(row);
        if (!patch) return row;
        changed = true;
        return { ...row, ...patch };
      });
      return changed ? { ...s, rows } : s;
    });
  }

  /** Where a row stands (its pick, its item, its place among the item's works); a row without one comes first. */
  const placeOf = (uuid: string): RowPlace => places.get(uuid) ?? [];

  return { worksStore: store, addWorks, updateWork, setProduct, replaceWork, removeWorks, setSelectedWorks, clearWorks, updateWorks, placeOf };
}

export type WorksCommands = ReturnType<typeof createWorks>;

export const selectWorkByUuid = (uuid: string) => (s: WorksState): WorkRow | undefined => s.rows.find((row) => row.uuid === uuid);

const indexes = new WeakMap<readonly WorkRow[], Map<string, WorkRow>>();
/** The row with this uuid; after the first call for a given `rows` array a lookup is O(1) (the table's cells use it). */
export function rowByUuid(state: WorksState, uuid: string): WorkRow | undefined {
  let index = indexes.get(state.rows);
  if (!index) {
    index = new Map(state.rows.map((row) => [row.uuid, row]));
    indexes.set(state.rows, index);
  }
  return index.get(uuid);
}
