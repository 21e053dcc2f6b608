/**
 * The address editors that are open, keyed by work uuid, with what the customer typed so far. It
 * lives outside React so an editor survives its row scrolling out of the virtualised table and
 * back; 保存 writes the location to the row, 取消 forgets the edit.
 */
import type { OrderLocation } from '@portal/contract/api';
import { createStore, useStore } from '../../lib/external-store.ts';
import { trimLocation } from './location.ts';

export type AddressEdits = Readonly<Record<string, OrderLocation>>;

export const addressEditsStore = createStore<AddressEdits>({}, { notify: 'sync' });

export function useAddressEdit(uuid: string): OrderLocation | undefined {
  return useStore(addressEditsStore, (s) => s[uuid]);
}

export function startAddressEdit(uuid: string, initial: OrderLocation): void {
  addressEditsStore.setState((s) => ({ ...s, [uuid]: initial }));
}

export function patchAddressEdit(uuid: string, patch: Partial<OrderLocation>): void {
  addressEditsStore.setState((s) => {
    const current = s[uuid];
    return current ? { ...s, [uuid]: { ...current, ...patch } } : s;
  });
}

export function endAddressEdits(uuids?: readonly string[]): void {
  addressEditsStore.setState((s) => {
    if (!uuids) return Object.keys(s).length ? {} : s;
    if (!uuids.some((u) => s[u])) return s;
    const next = { ...s };
    for (const u of uuids) delete next[u];
    return next;
  });
}

/**
 * Saves every open editor as its 保存 would (`apply` writes a row's location) and closes them: 批量下单 checks the
 * addresses the customer sees, not the ones saved before an edit (it named the old phone: LAN walk, 2026-11-30).
 */
export function saveAddressEdits(apply: (uuid: string, location: OrderLocation) => void): void {
  const open = addressEditsStore.getState();
  for (const [uuid, edit] of Object.entries(open)) apply(uuid, trimLocation(edit));
  endAddressEdits(Object.keys(open));
}
