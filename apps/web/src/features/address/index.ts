/**
 * The public entry of features/address: Delivery addresses: the address line of a row, 统一设置地址, and the
 * address rules the order uses. Other features and app/ import only this.
 */
export { getDefaultAddress } from './api/default-address.ts';
export { AddressLine } from './components/AddressLine.tsx';
export { RegionSelects } from './components/RegionSelects.tsx';
export { UnifiedAddressButton } from './components/UnifiedAddressButton.tsx';
export { useDefaultAddress } from './hooks/useDefaultAddress.ts';
export { endAddressEdits, saveAddressEdits } from './edits.ts';
export { addressText, locationOfCustomer, locationProblem } from './location.ts';
