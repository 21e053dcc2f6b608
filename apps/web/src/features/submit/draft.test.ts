import type { OrderLocation } from '@portal/contract/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkRow } from '../batch/index.ts';
import { DRAFT_KEY, makeDraft, readDraft, saveDraft, takeDraft } from './draft.ts';

/** The browser's localStorage, as far as the draft uses it (Node has none). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() { return items.size; },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

const home: OrderLocation = { contact: '张三', phone: '13800000000', province: '广东省', city: '深圳市', district: '南山区', address: '科技园1号' };
const row = (name: string, quantity: number, extra: Partial<WorkRow> = {}): WorkRow =>
  ({ uuid: `u-${name}`, articleName: name, filePath: `upload/b/${name}`, fileName: name, files: [], quantity, state: 'match', ...extra });

describe('the batch draft', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('Unified: one address with every copy; the check\'s answer is dropped but what the price counts is kept', () => {
    const checked = row('a', 2, { checkResult: { priceBasis: 'copy' } as WorkRow['checkResult'] });
    const draft = makeDraft([checked, row('b', 3)], { customerHubId: 1, deliveryMethod: 'Unified', location: home });
    expect(draft.location).toEqual({ ...home, quantity: 5 });
    expect(draft.orderLocations).toEqual([]);
    expect(draft.fileList[0]).not.toHaveProperty('checkResult');
    expect(draft.fileList[0]?.priceBasis).toBe('copy');
  });

  it('Partial: each row\'s own address with the row\'s copies, and none for a row without one', () => {
    const draft = makeDraft([row('a', 2, { orderLocations: [home] }), row('b', 1)], { customerHubId: 2, deliveryMethod: 'Partial' });
    expect(draft.location).toBeUndefined();
    expect(draft.orderLocations).toEqual([{ ...home, quantity: 2 }]);
    expect(draft.fileList.map((r) => r.orderLocations)).toEqual([[{ ...home, quantity: 2 }], []]);
  });

  it('is read back with its idempotency key by its own hub only, and taken once', () => {
    const draft = makeDraft([row('a', 1)], { customerHubId: 1, deliveryMethod: 'Unified', location: home });
    expect(saveDraft(draft)).toBe(true);
    expect(readDraft(2)).toBeNull();
    expect(readDraft(1)?.idempotencyKey).toBe(draft.idempotencyKey);
    expect(readDraft(1)?.idempotencyKey).toBe(draft.idempotencyKey);
    expect(takeDraft(1)?.fileList.map((r) => r.articleName)).toEqual(['a']);
    expect(readDraft(1)).toBeNull();
    // A new 批量下单 makes a new key.
    expect(makeDraft([row('a', 1)], { customerHubId: 1, deliveryMethod: 'Unified' }).idempotencyKey).not.toBe(draft.idempotencyKey);
  });

  it('ignores what this app did not write, and says so when the browser refuses to store', () => {
    localStorage.setItem(DRAFT_KEY, '{"customerHubId":1');
    expect(readDraft(1)).toBeNull();
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ customerHubId: 1, idempotencyKey: 'k', deliveryMethod: 'Somewhere', fileList: [] }));
    expect(readDraft(1)).toBeNull();
    vi.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(saveDraft(makeDraft([row('a', 1)], { customerHubId: 1, deliveryMethod: 'Unified' }))).toBe(false);
  });
});
