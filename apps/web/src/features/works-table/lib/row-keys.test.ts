import { describe, expect, it } from 'vitest';
import { keepRowKeys, NO_ROW_KEYS, type RowKeys } from './row-keys.ts';

const keysOf = (k: RowKeys) => [...k.rows.values()].map((r) => `${r.uuid}=${r.key}`);

describe('the order table keeps a row\'s key for the row that takes its place', () => {
  // Places as WorksTable gives them: pick:item:index; a preflight row at its item's first work's.
  const places: Record<string, string> = { 'preflight:a': '1:0:0', 'preflight:b': '1:1:0', w1: '1:0:0', w2: '1:0:1', w3: '1:1:0', w4: '1:1:0' };
  const placeOf = (uuid: string) => places[uuid] ?? '';

  it('gives the first work of an item its preflight row\'s key, the others their own', () => {
    const picked = keepRowKeys(['preflight:a', 'preflight:b'], placeOf, NO_ROW_KEYS);
    const parsed = keepRowKeys(['w1', 'w2', 'preflight:b'], placeOf, picked);
    expect(keysOf(parsed)).toEqual(['w1=preflight:a', 'w2=w2', 'preflight:b=preflight:b']);
    // Kept on the next renders, with the same objects for unchanged rows.
    const again = keepRowKeys(['w1', 'w2', 'w3'], placeOf, parsed);
    expect(keysOf(again)).toEqual(['w1=preflight:a', 'w2=w2', 'w3=preflight:b']);
    expect(again.rows.get('w2')).toBe(parsed.rows.get('w2'));
  });

  it('gives a work put in another\'s place (添加文件) that one\'s key', () => {
    const before = keepRowKeys(['w1', 'w3'], placeOf, NO_ROW_KEYS);
    expect(keysOf(keepRowKeys(['w1', 'w4'], placeOf, before))).toEqual(['w1=w1', 'w4=w3']);
  });

  it('takes over no key of a row still shown, and gives a key back to the row whose uuid it is', () => {
    const both = keepRowKeys(['w3', 'preflight:b'], placeOf, NO_ROW_KEYS);
    expect(keysOf(both)).toEqual(['w3=w3', 'preflight:b=preflight:b']);
    const taken = keepRowKeys(['w1', 'w3'], placeOf, keepRowKeys(['preflight:a', 'w3'], placeOf, NO_ROW_KEYS));
    expect(keysOf(keepRowKeys(['preflight:a', 'w1', 'w3'], placeOf, taken))).toEqual(['preflight:a=preflight:a', 'w1=w1', 'w3=w3']);
  });

  it('keeps no place for rows without one', () => {
    const before = keepRowKeys(['x'], placeOf, NO_ROW_KEYS);
    expect(keysOf(keepRowKeys(['y'], placeOf, before))).toEqual(['y=y']);
  });
});
