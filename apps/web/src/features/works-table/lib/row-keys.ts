/**
 * The order table's key of each row. A row that takes another's place keeps that row's key: the first work of an
 * item keeps the key of the item's preflight row, a work 添加文件 put in another's place keeps that one's. antd's
 * virtual table keeps a row's measured height by its key and draws a new key at its estimate (47 px where a row is
 * 68) until it is measured; at the list's end the browser then pulls every row 19 px down under the customer's
 * pointer, and they stay there (e2e upload.test "rows keep the picked order").
 */

export interface RowRef {
  /** The work's uuid, or a preflight row's key (PREFLIGHT_PREFIX and the item's key). */
  uuid: string;
  /** The table's key of the row: its own uuid, or the one of the row whose place it took. */
  key: string;
}

export interface RowKeys {
  /** The rows shown, by uuid: the same object for a row that did not change. */
  rows: ReadonlyMap<string, RowRef>;
  /** The row standing at each place. */
  byPlace: ReadonlyMap<string, RowRef>;
}

export const NO_ROW_KEYS: RowKeys = { rows: new Map(), byPlace: new Map() };

/**
 * The rows of `shown` (uuids in their order) with their keys, from the `previous` rows'. `placeOf` names the place
 * a row stands at ('' for none): a work's place, a preflight row's the place its item's first work will take.
 * Invariant: no two rows shown share a key (a key is taken over only from a row no longer shown, and given back
 * when the row whose uuid it is comes back).
 */
export function keepRowKeys(shown: readonly string[], placeOf: (uuid: string) => string, previous: RowKeys): RowKeys {
  const present = new Set(shown);
  const rows = new Map<string, RowRef>();
  const byPlace = new Map<string, RowRef>();
  for (const uuid of shown) {
    const place = placeOf(uuid);
    let ref = previous.rows.get(uuid);
    if (ref && ref.key !== uuid && present.has(ref.key)) ref = undefined;
    if (!ref) {
      const before = place ? previous.byPlace.get(place) : undefined;
      const takeOver = before !== undefined && !present.has(before.uuid) && !present.has(before.key);
      ref = { uuid, key: takeOver ? before.key : uuid };
    }
    rows.set(uuid, ref);
    if (place) byPlace.set(place, ref);
  }
  return { rows, byPlace };
}
