import { describe, expect, it } from 'vitest';
import type { BatchDraft } from '../../submit/index.ts';
import { batchBodyOf } from './bodies.ts';

const row = (uuid: string, articleName: string, quantity: number) =>
  ({ uuid, articleName, quantity, filePath: `upload/f/${articleName}.jpg`, productId: 7, propertyConfigId: 9, toning: 'None' }) as unknown as BatchDraft['fileList'][number];
const draft: BatchDraft = {
  version: 1, customerHubId: 1, idempotencyKey: 'key-12345678', savedAt: '2026-12-01T00:00:00Z', deliveryMethod: 'Unified',
  fileList: [row('a', '光面', 3), row('b', '亚面', 3)], orderLocations: [],
};

describe('the order body of a draft', () => {
  it('carries the confirmed quote: its total and each line\'s amount (a line without a price, none)', () => {
    const body = batchBodyOf(draft, { totalAmount: 3.9, lines: [{ uuid: 'b', amount: 1.95 }, { uuid: 'a', amount: null }] });
    expect(body.expectedTotalAmount).toBe(3.9);
    expect(body.works.map((w) => [w.articleName, w.quantity, w.expectedAmount])).toEqual([['光面', 3, undefined], ['亚面', 3, 1.95]]);
  });

  it('confirms nothing without a quote (the server prices it as it stands)', () => {
    const body = batchBodyOf(draft);
    expect('expectedTotalAmount' in body).toBe(false);
    expect(body.works.every((w) => w.expectedAmount === undefined)).toBe(true);
  });
});
