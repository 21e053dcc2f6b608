import { describe, expect, it } from 'vitest';
import { backoffMs, eventBody, MAX_BACKOFF_MS } from './webhooks.ts';

describe('webhook backoff', () => {
  it('waits the base, then four times longer each time, never longer than the cap', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 5000))).toEqual([5000, 20_000, 80_000, 320_000]);
    expect(backoffMs(30, 5000)).toBe(MAX_BACKOFF_MS);
  });
});

describe('webhook event body', () => {
  it('is the Standard Webhooks shape with an ISO timestamp', () => {
    const body = JSON.parse(eventBody('order.created', new Date('2026-01-02T03:04:05Z'), { salesOrderNumber: 'SO1' }));
    expect(body).toEqual({ type: 'order.created', timestamp: '2026-01-02T03:04:05.000Z', data: { salesOrderNumber: 'SO1' } });
  });
});
