/**
 * 按推荐匹配: the checked rows that have a suggestion, grouped by their top suggestion's SKU, so each
 * group is checked against its SKU in one go (the existing check flow).
 */
import type { ProductSuggestion } from '@portal/contract/suggest';

/** What 按推荐匹配 tells the customer. */
export const SUGGEST_MSG = {
  nothingChecked: '请先勾选要按推荐匹配的作品（可点击“勾选这些作品”）',
  /** The table holds only items still uploading or being parsed. */
  afterParse: '文件解析完成后，这里会推荐尺寸相符的产品',
  /** The suggestions of the works without a product are being asked for. */
  computing: '计算中…',
  /** Every work has a product. */
  allChosen: '所有作品都已选择产品',
  chosenLeft: (n: number) => `${n}个作品已选择产品，未改动`,
  // A suggestion is a product the work passes as it is, its page counts too: a brochure whose sizes all fit but whose
  // cover has 2 pages of 4 read 没有尺寸相符的产品 (LAN walk, 2026-11-30).
  withoutSuggestion: (n: number) => `${n}个作品没有尺寸和页数都相符的推荐产品，请使用“选择产品”`,
  /** The panel's line for the works nothing fits. */
  nothingFits: '没有尺寸和页数都相符的产品，请使用“选择产品”',
  /** The panel's title when it holds more lines than it shows. */
  title: (lines: number) => (lines > 2 ? `推荐产品（共${lines}组，可滚动查看）` : '推荐产品'),
} as const;

export interface SkuGroup {
  suggestion: ProductSuggestion;
  uuids: string[];
}

/**
 * The checked rows by what 按推荐匹配 does with them: grouped by their top suggestion's SKU; `without` a
 * suggestion (their files fit no SKU as they are); `chosen`, rows that have a product already, which it
 * leaves alone (they were counted as without a suggestion: LAN walk, 2026-11-30). `unmatched` are the rows
 * without a product.
 */
export function groupsToApply(checked: readonly string[], suggestions: ReadonlyMap<string, readonly ProductSuggestion[]>, unmatched: ReadonlySet<string>): { groups: SkuGroup[]; without: string[]; chosen: string[] } {
  const groups = new Map<number, SkuGroup>();
  const without: string[] = [];
  const chosen: string[] = [];
  for (const uuid of checked) {
    if (!unmatched.has(uuid)) {
      chosen.push(uuid);
      continue;
    }
    const top = suggestions.get(uuid)?.[0];
    if (!top) {
      without.push(uuid);
      continue;
    }
    const g = groups.get(top.propertyConfigId) ?? { suggestion: top, uuids: [] };
    g.uuids.push(uuid);
    groups.set(top.propertyConfigId, g);
  }
  return { groups: [...groups.values()], without, chosen };
}

/** How a suggestion reads in the table: 6寸照片冲印（光面;无边框） */
export const suggestionLabel = (s: ProductSuggestion) => `${s.productName}（${s.sku.split(';').map((p) => p.slice(p.indexOf(':') + 1)).join('，')}）`;
