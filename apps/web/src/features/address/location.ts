/**
 * Pure helpers for an order location (../shared/spec/product-spec.md §3: contact, phone, province, city, district,
 * address, quantity, addressId) as the rows of the order table keep it.
 */
import type { CustomerLocation, OrderLocation } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { isPhoneNumber } from '@portal/contract/rules';

export const emptyLocation = (): OrderLocation => ({ contact: '', phone: '', province: '', city: '', district: '', address: '' });

/** A hub address (the default one, for 统一设置地址) as an order location. */
export function locationOfCustomer(c: CustomerLocation): OrderLocation {
  return { contact: c.contact, phone: c.phone, province: c.province, city: c.city, district: c.district, address: c.address, addressId: c.id };
}

const blank = (s: string | undefined | null) => !s || !s.trim();

/** A phone that is filled in but is neither a mainland mobile nor a landline with its area code. */
export const isBadPhone = (phone: string | undefined | null) => !blank(phone) && !isPhoneNumber(phone ?? '');

export type LocationGap = 'recipient' | 'phone' | 'phoneFormat' | 'address';

/** The first gap of a location in the order of ../shared/spec/product-spec.md §5 rule 7, or null when it is complete. */
export function locationGap(location: OrderLocation | undefined): LocationGap | null {
  if (blank(location?.contact)) return 'recipient';
  if (blank(location?.phone)) return 'phone';
  if (isBadPhone(location?.phone)) return 'phoneFormat';
  if (!location || blank(location.province) || blank(location.city) || blank(location.district) || blank(location.address)) return 'address';
  return null;
}

/** What a saved address line shows beside an incomplete address, before 批量下单 names the work. */
export const GAP_TEXT: Record<LocationGap, string> = { recipient: '缺少收件人', phone: '缺少联系电话', phoneFormat: '联系电话格式不正确', address: '地址不完整' };

const GAP_PROBLEM: Record<LocationGap, (name: string) => string> = {
  recipient: MSG.emptyRecipient, phone: MSG.emptyPhone, phoneFormat: MSG.badPhone, address: MSG.badAddress,
};

/** The address problem of ../shared/spec/product-spec.md §5 rule 7 for a work named `name`, or null when the location is complete. */
export function locationProblem(location: OrderLocation | undefined, name: string): string | null {
  const gap = locationGap(location);
  return gap ? GAP_PROBLEM[gap](name) : null;
}

/** 浙江省杭州市西湖区 文三路 90 号 (a municipality's 市辖区 is left out). */
export function regionText(l: Pick<OrderLocation, 'province' | 'city' | 'district'>): string {
  const city = l.city === '市辖区' || l.city === '县' ? '' : l.city;
  return `${l.province}${city}${l.district}`;
}

export function addressText(l: OrderLocation): string {
  return [regionText(l), l.address].filter(Boolean).join(' ');
}

/** Trimmed copy; what 保存 writes to the row. */
export function trimLocation(l: OrderLocation): OrderLocation {
  return {
    ...l,
    contact: l.contact.trim(),
    phone: l.phone.trim(),
    province: l.province.trim(),
    city: l.city.trim(),
    district: l.district.trim(),
    address: l.address.trim(),
  };
}

const ADDRESS_FIELDS = ['contact', 'phone', 'province', 'city', 'district', 'address'] as const;

/** Nothing typed: every field empty or blank. */
export function isBlankLocation(l: OrderLocation | undefined | null): boolean {
  return !l || ADDRESS_FIELDS.every((f) => blank(l[f]));
}

/** The same address as the customer reads it (trimmed fields; the address book id aside). */
export function sameAddress(a: OrderLocation, b: OrderLocation): boolean {
  return ADDRESS_FIELDS.every((f) => (a[f] ?? '').trim() === (b[f] ?? '').trim());
}

export interface AddressTarget {
  uuid: string;
  name: string;
  /** What the row holds now: the editor's text while it is open, else its saved address. */
  current: OrderLocation | undefined;
}

/**
 * 统一设置地址 over rows: those that take `location` without a question (nothing typed, or that
 * address already), and those where the customer typed another address, which only a yes overwrites.
 */
export function planUnifiedAddress(rows: readonly AddressTarget[], location: OrderLocation): { free: AddressTarget[]; typed: AddressTarget[] } {
  const free: AddressTarget[] = [];
  const typed: AddressTarget[] = [];
  for (const row of rows) (isBlankLocation(row.current) || sameAddress(row.current as OrderLocation, location) ? free : typed).push(row);
  return { free, typed };
}
