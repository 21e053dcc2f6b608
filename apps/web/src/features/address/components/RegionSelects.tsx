import type { Region } from '@portal/contract/api';
import { MSG } from '@portal/contract/messages';
import { App, Select } from 'antd';
import { useEffect } from 'react';
import { useCities, useDistricts, useProvinces } from '../api/regions.ts';

export interface RegionValue {
  province: string;
  city: string;
  district: string;
}

export interface RegionSelectsProps {
  value: RegionValue;
  onChange: (next: RegionValue) => void;
  size?: 'small' | 'middle';
}

const idOf = (list: readonly Region[] | undefined, name: string) => (name ? list?.find((r) => r.name === name)?.id : undefined);
const optionsOf = (list: readonly Region[] | undefined) => (list ?? []).map((r) => ({ value: r.name, label: r.name }));

/** One toast however many selects fail at once (../shared/spec/product-spec.md §8: 数据获取失败，请稍后重试！). */
function useFailureToast(failed: boolean) {
  const { message } = App.useApp();
  useEffect(() => {
    if (failed) void message.error({ content: MSG.regionFetchFailed, key: 'region-fetch-failed' });
  }, [failed, message]);
}

/**
 * 省/市/区: names are what the order keeps (OrderLocation), ids are looked up in the cached lists
 * to ask for the next level. Changing a level clears the levels below it.
 */
export function RegionSelects({ value, onChange, size = 'small' }: RegionSelectsProps) {
  const provinces = useProvinces();
  const provinceId = idOf(provinces.data, value.province);
  const cities = useCities(provinceId);
  const cityId = idOf(cities.data, value.city);
  const districts = useDistricts(cityId);
  useFailureToast(provinces.isError || cities.isError || districts.isError);

  const common = { size, showSearch: { optionFilterProp: 'label' as const }, allowClear: true, popupMatchSelectWidth: false } as const;
  return (
    <>
      <Select
        {...common}
        aria-label="省"
        placeholder="省"
        style={{ width: 116 }}
        loading={provinces.isFetching}
        status={provinces.isError ? 'error' : undefined}
        value={value.province || undefined}
        options={optionsOf(provinces.data)}
        onChange={(province?: string) => onChange({ province: province ?? '', city: '', district: '' })}
      />
      <Select
        {...common}
        aria-label="市"
        placeholder="市"
        style={{ width: 116 }}
        disabled={provinceId === undefined}
        loading={cities.isFetching}
        status={cities.isError ? 'error' : undefined}
        value={value.city || undefined}
        options={optionsOf(cities.data)}
        onChange={(city?: string) => onChange({ ...value, city: city ?? '', district: '' })}
      />
      <Select
        {...common}
        aria-label="区"
        placeholder="区"
        style={{ width: 116 }}
        disabled={cityId === undefined}
        loading={districts.isFetching}
        status={districts.isError ? 'error' : undefined}
        value={value.district || undefined}
        options={optionsOf(districts.data)}
        onChange={(district?: string) => onChange({ ...value, district: district ?? '' })}
      />
    </>
  );
}
