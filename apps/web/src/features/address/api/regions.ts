import type { Region } from '@portal/contract/api';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../lib/http.ts';

/**
 * The region calls of ../shared/spec/product-spec.md §7. Regions do not change while the page is open: each list is
 * fetched once and shared by every row's selects. Calls are `silent` because their failure has its
 * own message (MSG.regionFetchFailed), shown by the selects.
 */
const FOREVER = Number.POSITIVE_INFINITY;

export async function getProvinces(signal?: AbortSignal): Promise<Region[]> {
  const { data } = await get<Region[]>('/api/location-provinces', { signal, silent: true });
  return data;
}

export async function getCities(provinceId: number, signal?: AbortSignal): Promise<Region[]> {
  const { data } = await get<Region[]>('/api/location-cities/findByProvince', { query: { provinceId }, signal, silent: true });
  return data;
}

export async function getDistricts(cityId: number, signal?: AbortSignal): Promise<Region[]> {
  const { data } = await get<Region[]>('/api/location-districts/findByCities', { query: { cityId }, signal, silent: true });
  return data;
}

export function useProvinces(enabled = true) {
  return useQuery({ queryKey: ['regions', 'provinces'], queryFn: ({ signal }) => getProvinces(signal), staleTime: FOREVER, enabled });
}

export function useCities(provinceId: number | undefined) {
  return useQuery({
    queryKey: ['regions', 'cities', provinceId],
    queryFn: ({ signal }) => getCities(provinceId as number, signal),
    enabled: provinceId !== undefined,
    staleTime: FOREVER,
  });
}

export function useDistricts(cityId: number | undefined) {
  return useQuery({
    queryKey: ['regions', 'districts', cityId],
    queryFn: ({ signal }) => getDistricts(cityId as number, signal),
    enabled: cityId !== undefined,
    staleTime: FOREVER,
  });
}
