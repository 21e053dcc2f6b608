import type { WebhookEventType } from '@portal/contract';

/** The longest wait between two attempts. */
export const MAX_BACKOFF_MS = 10 * 3600_000;

/**
 * The wait after failed attempt `attempt` (1-based): base, then four times longer each time, capped.
 * With the default base of 5 s and 8 attempts: 5 s, 20 s, 80 s, 5⅓ min, 21 min, 85 min, 5.7 h (about 8 h
 * in all), close to the schedule Standard Webhooks suggests.
 */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 4 ** Math.max(0, attempt - 1));
}

/** What an order event says about the order (the `data` of a Standard Webhooks payload). */
export type OrderEventData = {
  salesOrderNumber: string;
  customerHubId: number;
  articleName: string;
  productName: string;
  sku: string;
  quantity: number;
  amount: string;
  status?: string;
  previousStatus?: string | null;
  [key: string]: unknown;
};

/**
 * The Standard Webhooks payload: `{type, timestamp, data}`. Made once, stored, and sent byte for byte on
 * every attempt, so a signature always covers the bytes that arrive.
 */
export function eventBody(type: WebhookEventType | 'webhook.test', at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}
