import { ORDER_STATUS_TEXT, TRACKING_LIMITS, type OrderStatus } from '@portal/contract';

/**
 * The lifecycle of a sales order, as pure rules (issue #22 item 3):
 *   待处理 pending → 生产中 in_production → 已发货 shipped → 已完成 completed
 *   已取消 cancelled: by the customer while pending; by the operator until it ships.
 * Shipping needs a carrier and a tracking number. Anything else is refused with the reason in Chinese:
 * 409 when the order is not in a state that allows the move, 422 when the move lacks what it needs.
 */
export type Actor = 'customer' | 'operator';
export type TransitionRequest = { from: OrderStatus; to: OrderStatus; by: Actor; carrier?: string | null; trackingNumber?: string | null };
export type TransitionVerdict = { ok: true } | { ok: false; status: 409 | 422; code: string; message: string };

/** The moves each actor may make, from → to. */
const MOVES: Record<Actor, ReadonlyArray<readonly [OrderStatus, OrderStatus]>> = {
  operator: [
    ['pending', 'in_production'], ['in_production', 'shipped'], ['shipped', 'completed'],
    ['pending', 'cancelled'], ['in_production', 'cancelled'],
  ],
  customer: [['pending', 'cancelled']],
};

export const ORDER_STATUS_MSG = {
  same: (s: OrderStatus) => `订单已是${ORDER_STATUS_TEXT[s]}状态`,
  illegal: (from: OrderStatus, to: OrderStatus) => `订单当前为${ORDER_STATUS_TEXT[from]}，不能改为${ORDER_STATUS_TEXT[to]}`,
  customerCancelTooLate: '订单已开始生产，不能取消，请联系印刷厂',
  customerOnlyCancels: '客户只能取消待处理的订单',
  shipNeedsTracking: '发货需要填写快递公司和快递单号',
  trackingTooLong: `快递公司最长 ${TRACKING_LIMITS.carrier} 个字符，快递单号最长 ${TRACKING_LIMITS.trackingNumber} 个字符`,
  nothingToCorrect: (s: OrderStatus) => `订单当前为${ORDER_STATUS_TEXT[s]}，还没有快递单号可以更正`,
} as const;

/** The statuses whose carrier and tracking number the operator may correct: those that have them. */
const TRACKED: readonly OrderStatus[] = ['shipped', 'completed'];

/**
 * A carrier and a tracking number as they are stored: full-width letters and digits made half-width (NFKC: a Chinese
 * input method in full-width mode types ＳＦ１２３), the number without spaces. Stored as typed, a courier's site found
 * no such number (console probe, 2026-12-01).
 */
export function normaliseTracking(carrier: string | null | undefined, trackingNumber: string | null | undefined): { carrier: string; trackingNumber: string } {
  return { carrier: (carrier ?? '').normalize('NFKC').trim(), trackingNumber: (trackingNumber ?? '').normalize('NFKC').replace(/\s+/g, '') };
}

/** A carrier and a tracking number as shipping needs them: both given, neither too long (as they are stored). */
function checkTracking(carrier: string | null | undefined, trackingNumber: string | null | undefined): TransitionVerdict {
  const { carrier: c, trackingNumber: t } = normaliseTracking(carrier, trackingNumber);
  if (!c || !t) return { ok: false, status: 422, code: 'tracking-required', message: ORDER_STATUS_MSG.shipNeedsTracking };
  if (c.length > TRACKING_LIMITS.carrier || t.length > TRACKING_LIMITS.trackingNumber) return { ok: false, status: 422, code: 'tracking-too-long', message: ORDER_STATUS_MSG.trackingTooLong };
  return { ok: true };
}

/** Whether an order in `status` may have its carrier and tracking number corrected (a number mistyped at 发货). */
export function checkTrackingCorrection(status: OrderStatus, carrier: string | null | undefined, trackingNumber: string | null | undefined): TransitionVerdict {
  if (!TRACKED.includes(status)) return { ok: false, status: 409, code: 'not-shipped', message: ORDER_STATUS_MSG.nothingToCorrect(status) };
  return checkTracking(carrier, trackingNumber);
}

export function nextStatuses(from: OrderStatus, by: Actor): OrderStatus[] {
  return MOVES[by].filter(([f]) => f === from).map(([, t]) => t);
}

export function checkTransition(req: TransitionRequest): TransitionVerdict {
  const { from, to, by } = req;
  if (from === to) return { ok: false, status: 409, code: 'same-status', message: ORDER_STATUS_MSG.same(from) };
  if (!MOVES[by].some(([f, t]) => f === from && t === to)) {
    if (by === 'customer') {
      if (to !== 'cancelled') return { ok: false, status: 409, code: 'illegal-transition', message: ORDER_STATUS_MSG.customerOnlyCancels };
      return { ok: false, status: 409, code: 'illegal-transition', message: from === 'in_production' ? ORDER_STATUS_MSG.customerCancelTooLate : ORDER_STATUS_MSG.illegal(from, to) };
    }
    return { ok: false, status: 409, code: 'illegal-transition', message: ORDER_STATUS_MSG.illegal(from, to) };
  }
  if (to === 'shipped') return checkTracking(req.carrier, req.trackingNumber);
  return { ok: true };
}
