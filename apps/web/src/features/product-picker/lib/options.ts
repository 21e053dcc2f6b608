/**
 * Option selection of product details (../shared/spec/product-spec.md §4 "Option selection"): one value per option
 * item, chosen by toggling; a value is offered only when some SKU holds it together with every
 * value already chosen for the other items, so the customer can never build a SKU that does not
 * exist (the demo's 珠光 + 留白边).
 */
import type { ProductDetails, PropertyConfig } from '@portal/contract/api';

/** itemId → the chosen valueId. */
export type Selection = Readonly<Record<number, number>>;

const liveConfigs = (product: ProductDetails) => product.propertyConfigs.filter((c) => !c.cancelled);

/** Choosing a value deselects its siblings; choosing the chosen one deselects it. */
export function toggleOption(selection: Selection, itemId: number, valueId: number): Selection {
  const next: Record<number, number> = { ...selection };
  if (next[itemId] === valueId) delete next[itemId];
  else next[itemId] = valueId;
  return next;
}

/** True when some SKU holds `valueId` together with the values chosen for the other items. */
export function isValueAvailable(product: ProductDetails, selection: Selection, itemId: number, valueId: number): boolean {
  const others = Object.entries(selection)
    .filter(([item]) => Number(item) !== itemId)
    .map(([, value]) => value);
  return liveConfigs(product).some((c) => c.optionValueIds.includes(valueId) && others.every((v) => c.optionValueIds.includes(v)));
}

/** The items that offer a choice at all. */
export const choiceItems = (product: ProductDetails) => product.objectItems.filter((i) => i.itemValues.length > 0);

/** The SKU of a complete selection, or undefined while an item is still open. */
export function configOf(product: ProductDetails, selection: Selection): PropertyConfig | undefined {
  const items = choiceItems(product);
  const configs = liveConfigs(product);
  if (items.length === 0) return configs.length === 1 ? configs[0] : configs.find((c) => c.jhiDefault);
  if (items.some((i) => selection[i.item.id] === undefined)) return undefined;
  const chosen = items.map((i) => selection[i.item.id] as number);
  return configs.find((c) => chosen.every((v) => c.optionValueIds.includes(v)));
}

/** The selection that names a SKU (to open details on the SKU a row already has). */
export function selectionOf(product: ProductDetails, config: PropertyConfig | undefined): Selection {
  if (!config) return {};
  const out: Record<number, number> = {};
  for (const item of product.objectItems) {
    const value = item.itemValues.find((v) => config.optionValueIds.includes(v.id));
    if (value) out[item.item.id] = value.id;
  }
  return out;
}

/** Drops chosen values that no longer fit together (after the product changed under them). */
export function pruneSelection(product: ProductDetails, selection: Selection): Selection {
  const out: Record<number, number> = {};
  for (const [item, value] of Object.entries(selection)) {
    if (isValueAvailable(product, out, Number(item), value)) out[Number(item)] = value;
  }
  return out;
}

const range = (min: number | null | undefined, max: number | null | undefined): string => {
  if (min != null && max != null) return min === max ? `固定${min}页` : `最少${min}页，最多${max}页`;
  if (min != null) return `最少${min}页`;
  if (max != null) return `最多${max}页`;
  return '不限';
};

/**
 * The page-count lines (../shared/spec/product-spec.md §9): default, minimum and maximum per configuration when the
 * SKU sets them, else the product's; then per component paper that sets its own limits.
 */
export function pageCountLines(product: ProductDetails, config: PropertyConfig | undefined): string[] {
  const min = config?.minPageCount ?? product.minNumberOfPages;
  const max = config?.maxPageCount ?? product.maxNumberOfPages;
  const lines = [`默认${product.pageCount}页，${range(min, max)}`];
  for (const component of product.components) {
    if (component.cancelled) continue;
    for (const paper of component.objectPapers) {
      if (paper.minPageCount == null && paper.maxPageCount == null) continue;
      lines.push(`${component.name}（${paper.paper}）：${range(paper.minPageCount, paper.maxPageCount)}`);
    }
  }
  return lines;
}
