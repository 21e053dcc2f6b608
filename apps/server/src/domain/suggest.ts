import { allowedDeviation } from '@portal/contract';
import { checkWork, type CheckComponent, type CheckItem, type CheckOutcome, type PageSpec } from './check.ts';

/**
 * 推荐产品 (issue #20 item 3): which products and SKUs a work's files fit as they are. Each candidate SKU is
 * judged by checkWork itself, so a suggestion is exactly what 选择产品 would then answer: the sizes within
 * tolerance (the swapped orientation where the component allows it), the page count within the SKU's
 * limits (else the product's). Only candidates that pass are suggested.
 *
 * Best first (docs/decisions.md, 推荐产品):
 *   1. fewer warnings: files below the resolution threshold (or above its limit), then files whose dpi
 *      is not stated (measured at 72 dpi, so their size is a guess);
 *   2. the smaller size miss: the largest share of its tolerance any file uses (0 = exact size);
 *   3. fewer files that fit only turned (swapped orientation);
 *   4. the catalogue's order.
 * Per product one suggestion: its best SKU (the default SKU when several are as good), with every other
 * SKU that fits as well listed behind it.
 */

export type SuggestSku = {
  id: number;
  number: string;
  sku: string;
  skuNumber: string;
  jhiDefault: boolean;
  minPageCount: number | null;
  maxPageCount: number | null;
  toning: 'Manual' | 'None';
  customToning: boolean;
  componentSizes: Record<string, { width: number; height: number }>;
};

export type SuggestProduct = {
  id: number;
  number: string;
  name: string;
  pageCount: number;
  minNumberOfPages: number | null;
  maxNumberOfPages: number | null;
  /** The live components, in catalogue order, with their papers' page counts. */
  components: Array<Omit<CheckComponent, 'pages'> & { pages: PageSpec | null }>;
  /** Saleable SKUs only, in catalogue order. */
  skus: SuggestSku[];
};

export type Suggestion = {
  productId: number;
  productNumber: string;
  productName: string;
  propertyConfigId: number;
  sku: string;
  skuNumber: string;
  toning: 'Manual' | 'None';
  customToning: boolean;
  /** exact: every file within a tenth of its tolerance of the size; tolerance: within the tolerance. */
  fit: 'exact' | 'tolerance';
  /** The largest share of its tolerance a file uses, 0–1. */
  sizeMiss: number;
  /** Files that fit only turned. */
  swapped: number;
  resolutionWarnings: number;
  dpiUnstated: number;
  pageCount: number;
  components: CheckOutcome['components'];
  /** Other SKUs of the product the files fit as well (their ids), for the picker. */
  otherPropertyConfigIds: number[];
};

const EXACT_SHARE = 0.1;

/** How far a row is from its component's size, as a share of the tolerance (the orientation it fits in). */
function missOf(row: CheckOutcome['rows'][number]): { share: number; swapped: boolean } {
  const c = row.component!;
  const share = (w: number, h: number) => Math.max(
    Math.abs(row.width - w) / Math.max(allowedDeviation(w, c), 1e-9),
    Math.abs(row.height - h) / Math.max(allowedDeviation(h, c), 1e-9),
  );
  const asIs = share(c.width, c.height);
  if (asIs <= 1 + 1e-6 || !c.autoOrientationDetection) return { share: Math.min(asIs, 1), swapped: false };
  return { share: Math.min(share(c.height, c.width), 1), swapped: true };
}

type Scored = Omit<Suggestion, 'otherPropertyConfigIds'> & { rank: number; isDefault: boolean };

function score(items: CheckItem[], product: SuggestProduct, sku: SuggestSku, rank: number): Scored | null {
  const components: CheckComponent[] = product.components.map((c) => ({
    ...c, width: sku.componentSizes[c.uuid]?.width ?? c.width, height: sku.componentSizes[c.uuid]?.height ?? c.height,
  }));
  const outcome = checkWork(items, components, {
    base: product.pageCount,
    min: sku.minPageCount ?? product.minNumberOfPages,
    max: sku.maxPageCount ?? product.maxNumberOfPages,
    check: true,
  });
  if (!outcome.pass) return null;
  let sizeMiss = 0;
  let swapped = 0;
  for (const r of outcome.rows) {
    const m = missOf(r);
    sizeMiss = Math.max(sizeMiss, m.share);
    if (m.swapped) swapped++;
  }
  return {
    productId: product.id, productNumber: product.number, productName: product.name,
    propertyConfigId: sku.id, sku: sku.sku, skuNumber: sku.skuNumber, toning: sku.toning, customToning: sku.customToning,
    fit: sizeMiss <= EXACT_SHARE ? 'exact' : 'tolerance',
    sizeMiss: Math.round(sizeMiss * 1000) / 1000,
    swapped,
    resolutionWarnings: outcome.rows.filter((r) => r.resolutionWarning).length,
    dpiUnstated: outcome.rows.filter((r) => r.dpiStated === false).length,
    pageCount: outcome.pageCount,
    components: outcome.components,
    rank,
    isDefault: sku.jhiDefault,
  };
}

/** Orders two candidates: negative when `a` is the better suggestion. */
function compare(a: Scored, b: Scored): number {
  return a.resolutionWarnings - b.resolutionWarnings
    || a.dpiUnstated - b.dpiUnstated
    || a.sizeMiss - b.sizeMiss
    || a.swapped - b.swapped
    || a.rank - b.rank
    || Number(b.isDefault) - Number(a.isDefault);
}

/**
 * The products (and SKUs) a work's measured files fit as they are, best first, at most `limit`.
 * `products` are the hub's visible products in catalogue order.
 */
export function suggestProducts(items: CheckItem[], products: readonly SuggestProduct[], limit = 5): Suggestion[] {
  if (items.length === 0 || items.some((i) => i.broken)) return [];
  const best: Array<Scored & { others: number[] }> = [];
  products.forEach((product, p) => {
    if (product.components.length === 0) return;
    // SKUs that differ only in paper or finish have the same geometry: judged once.
    const judged = new Map<string, Scored | null>();
    const fitting: Scored[] = [];
    product.skus.forEach((sku, s) => {
      const key = JSON.stringify([sku.componentSizes, sku.minPageCount, sku.maxPageCount]);
      if (!judged.has(key)) judged.set(key, score(items, product, sku, p * 10_000 + s));
      const same = judged.get(key);
      if (same) fitting.push({ ...same, propertyConfigId: sku.id, sku: sku.sku, skuNumber: sku.skuNumber, toning: sku.toning, customToning: sku.customToning, isDefault: sku.jhiDefault, rank: p * 10_000 + s });
    });
    if (fitting.length === 0) return;
    // Within a product the default SKU goes first among equals, not the first in catalogue order.
    fitting.sort((a, b) => compare({ ...a, rank: 0 }, { ...b, rank: 0 }) || a.rank - b.rank);
    const [top, ...rest] = fitting;
    best.push({ ...top!, others: rest.map((r) => r.propertyConfigId) });
  });
  best.sort(compare);
  return best.slice(0, limit).map(({ rank: _rank, isDefault: _isDefault, others, ...s }) => ({ ...s, otherPropertyConfigIds: others }));
}
