import { describe, expect, it } from 'vitest';
import type { ProductSuggestion } from '@portal/contract/suggest';
import { groupsToApply, suggestionLabel } from './apply.ts';

const s = (propertyConfigId: number, productName = '6寸照片冲印'): ProductSuggestion => ({
  productId: 2, productNumber: 'PH-6', productName, propertyConfigId, sku: '相纸:光面;边框:无边框', skuNumber: 'S201', toning: 'None', customToning: true,
  fit: 'exact', sizeMiss: 0, swapped: 0, resolutionWarnings: 0, dpiUnstated: 0, pageCount: 1, components: [], otherPropertyConfigIds: [],
});

describe('按推荐匹配', () => {
  it('groups the checked rows by their top suggestion, names the rows without one, and leaves rows with a product alone', () => {
    const map = new Map([['a', [s(7), s(8)]], ['b', [s(9, '5寸照片冲印')]], ['c', [s(7)]], ['d', []]]);
    const { groups, without, chosen } = groupsToApply(['a', 'b', 'c', 'd', 'e', 'f'], map, new Set(['a', 'b', 'c', 'd', 'e']));
    expect(groups.map((g) => [g.suggestion.propertyConfigId, g.uuids])).toEqual([[7, ['a', 'c']], [9, ['b']]]);
    expect(without).toEqual(['d', 'e']);
    expect(chosen).toEqual(['f']);
  });
  it('reads the SKU\'s option values', () => {
    expect(suggestionLabel(s(7))).toBe('6寸照片冲印（光面，无边框）');
  });
});
