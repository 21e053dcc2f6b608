import { describe, expect, it } from 'vitest';
import { emptyLocation, GAP_TEXT, locationGap, locationProblem, planUnifiedAddress } from './location.ts';

const home = { contact: '李娜', phone: '13900139000', province: '浙江省', city: '杭州市', district: '西湖区', address: '文三路 90 号', addressId: 2 };

describe('统一设置地址 over the rows', () => {
  it('fills rows with nothing typed or that address already, and keeps apart the ones typed by hand', () => {
    const plan = planUnifiedAddress(
      [
        { uuid: 'a', name: '空白', current: undefined },
        { uuid: 'b', name: '空白编辑中', current: { ...emptyLocation(), contact: '  ' } },
        { uuid: 'c', name: '同一地址', current: { ...home, address: ' 文三路 90 号 ', addressId: undefined } },
        { uuid: 'd', name: '手填', current: { ...emptyLocation(), contact: '王小明' } },
        { uuid: 'e', name: '手填电话不同', current: { ...home, phone: '13700137000' } },
      ],
      home,
    );
    expect(plan.free.map((r) => r.uuid)).toEqual(['a', 'b', 'c']);
    expect(plan.typed.map((r) => r.uuid)).toEqual(['d', 'e']);
  });
});

describe('an address that is not complete', () => {
  it.each([
    [{ ...home, contact: ' ' }, 'recipient', '竖版六寸的收件人不能为空'],
    [{ ...home, phone: '' }, 'phone', '竖版六寸的联系电话不能为空'],
    [{ ...home, phone: '1370013' }, 'phoneFormat', null],
    [{ ...home, district: '' }, 'address', null],
    [home, null, null],
  ] as const)('%o → %s', (location, gap, problem) => {
    expect(locationGap(location)).toBe(gap);
    if (gap) expect(GAP_TEXT[gap]).toMatch(/\p{Script=Han}/u);
    if (problem) expect(locationProblem(location, '竖版六寸')).toBe(problem);
    if (!gap) expect(locationProblem(location, '竖版六寸')).toBeNull();
  });
});
