/**
 * 按推荐匹配: the checked rows that have a suggestion, grouped by their top suggestion's SKU, so each
 * group is checked against its SKU in one go (the existing check flow).
 */
import type { ProductSuggestion } from '@portal/contract/suggest';

export interface SkuGroup {
  suggestion: ProductSuggestion;
  uuids: string[];
}

export function groupsToApply(checked: readonly string[], suggestions: ReadonlyMap<string, readonly ProductSuggestion[]>): { groups: SkuGroup[]; without: string[] } {
  const groups = new Map<number, SkuGroup>();
  const without: string[] = [];
  for (const uuid of checked) {
    const top = suggestions.get(uuid)?.[0];
    if (!top) {
      without.push(uuid);
      continue;
    }
    const g = groups.get(top.propertyConfigId) ?? { suggestion: top, uuids: [] };
    g.uuids.push(uuid);
    groups.set(top.propertyConfigId, g);
  }
  return { groups: [...groups.values()], without };
}

/** How a suggestion reads in the table: 6寸照片冲印（光面;无边框） */
export const suggestionLabel = (s: ProductSuggestion) => `${s.productName}（${s.sku.split(';').map((p) => p.slice(p.indexOf(':') + 1)).join('，')}）`;
