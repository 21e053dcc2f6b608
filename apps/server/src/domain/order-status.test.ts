import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '@portal/contract';
import { checkTransition, nextStatuses, normaliseTracking, type Actor } from './order-status.ts';

const SHIP = { carrier: '顺丰', trackingNumber: 'SF1234567890' };

/** Every (from, to, by) with what it must give: 'ok', or the HTTP status of the refusal. */
const TABLE: Array<[OrderStatus, OrderStatus, Actor, 'ok' | 409]> = [
  ['pending', 'in_production', 'operator', 'ok'],
  ['in_production', 'shipped', 'operator', 'ok'],
  ['shipped', 'completed', 'operator', 'ok'],
  ['pending', 'cancelled', 'operator', 'ok'],
  ['in_production', 'cancelled', 'operator', 'ok'],
  ['shipped', 'cancelled', 'operator', 409],
  ['completed', 'cancelled', 'operator', 409],
  ['cancelled', 'pending', 'operator', 409],
  ['cancelled', 'in_production', 'operator', 409],
  ['pending', 'shipped', 'operator', 409],
  ['pending', 'completed', 'operator', 409],
  ['in_production', 'pending', 'operator', 409],
  ['in_production', 'completed', 'operator', 409],
  ['shipped', 'in_production', 'operator', 409],
  ['completed', 'shipped', 'operator', 409],
  ['pending', 'cancelled', 'customer', 'ok'],
  ['in_production', 'cancelled', 'customer', 409],
  ['shipped', 'cancelled', 'customer', 409],
  ['completed', 'cancelled', 'customer', 409],
  ['cancelled', 'cancelled', 'customer', 409],
  ['pending', 'in_production', 'customer', 409],
  ['in_production', 'shipped', 'customer', 409],
];

describe('order status transitions', () => {
  it.each(TABLE)('%s → %s by %s: %s', (from, to, by, expected) => {
    const v = checkTransition({ from, to, by, ...SHIP });
    expect(v.ok ? 'ok' : v.status).toBe(expected);
  });

  it('covers every pair of statuses for both actors, and nextStatuses agrees with checkTransition', () => {
    for (const by of ['operator', 'customer'] as const) {
      for (const from of ORDER_STATUSES) {
        const allowed = ORDER_STATUSES.filter((to) => checkTransition({ from, to, by, ...SHIP }).ok);
        expect(nextStatuses(from, by)).toEqual(allowed);
      }
    }
  });

  it('refuses shipping without a carrier or a tracking number with 422 and says what is missing', () => {
    for (const ship of [{}, { carrier: '顺丰' }, { trackingNumber: 'SF1' }, { carrier: '  ', trackingNumber: 'SF1' }]) {
      expect(checkTransition({ from: 'in_production', to: 'shipped', by: 'operator', ...ship }))
        .toEqual({ ok: false, status: 422, code: 'tracking-required', message: '发货需要填写快递公司和快递单号' });
    }
  });

  it('tells the customer why an order in production cannot be cancelled', () => {
    expect(checkTransition({ from: 'in_production', to: 'cancelled', by: 'customer' }))
      .toMatchObject({ ok: false, status: 409, message: '订单已开始生产，不能取消，请联系印刷厂' });
    expect(checkTransition({ from: 'shipped', to: 'cancelled', by: 'operator' }))
      .toMatchObject({ ok: false, status: 409, message: '订单当前为已发货，不能改为已取消' });
    expect(checkTransition({ from: 'cancelled', to: 'cancelled', by: 'operator' }))
      .toMatchObject({ ok: false, status: 409, message: '订单已是已取消状态' });
  });
});

describe('a carrier and tracking number as stored', () => {
  it.each([
    ['顺丰', 'SF1234567890', '顺丰', 'SF1234567890'],
    ['顺丰　', 'ＳＦ１２３４５６７８９０', '顺丰', 'SF1234567890'],
    [' 中通快递 ', '7731 2345 6789', '中通快递', '773123456789'],
    ['ＥＭＳ', 'ｅｍ１２３ＣＮ', 'EMS', 'em123CN'],
  ])('%j %j → %j %j', (carrier, number, storedCarrier, storedNumber) => {
    expect(normaliseTracking(carrier, number)).toEqual({ carrier: storedCarrier, trackingNumber: storedNumber });
  });

  it('refuses a number of spaces only, as one not given', () => {
    const v = checkTransition({ from: 'in_production', to: 'shipped', by: 'operator', carrier: '顺丰', trackingNumber: '　 ' });
    expect(v).toMatchObject({ ok: false, code: 'tracking-required' });
  });
});
