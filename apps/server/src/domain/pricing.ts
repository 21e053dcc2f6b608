/**
 * The price of a work, by what its product's price counts (../shared/spec/decisions.md §6):
 * - `print`: every file or PDF page is a print; prints = the work's pages × copies;
 * - `copy`: a copy holds the product's base pageCount; each page above it (addPageNum) is priced by the
 *   extra-page line, per copy;
 * - `area`: the files' area (fileArea, m²) × copies, rounded up to 0.01 m².
 * Quantity breaks (the price line with the highest minimum not above it) apply to the counted units:
 * prints, copies or square metres; the extra-page line is chosen at the same count.
 *
 * Money is exact: prices come in as decimal text (the database's numeric), are computed in fen (integer
 * cents, bigint: exact at any size, so a huge file's amount is refused by its bound, not lost) and go out as
 * decimal text. Invariants: every amount is a whole number of fen; the only rounding
 * is the area's (up to 0.01 m²) and its amount's (half up to a fen).
 */

export type PriceBasis = 'print' | 'copy' | 'area';
export type PriceLineKind = 'unit' | 'extraPage';

/** One price line of a SKU for a customer: from `minQuantity` counted units on, `amount` yuan (decimal text) per unit. */
export type PriceLineInput = { kind: PriceLineKind; minQuantity: number; amount: string };

export type PricingProduct = {
  basis: PriceBasis;
  /** What one counted unit is called (张, 本, 盒…); area is always ㎡. */
  unitName: string | null;
};

export type PricingWork = {
  /** The work's copies (订购数量). */
  copies: number;
  /** The work's pages (every file, every PDF page). */
  pageCount: number;
  /** Pages above the product's base pageCount. */
  addPageNum: number;
  /** The files' area in m². */
  fileArea: number;
};

/** What an order line's amount is made of; decimals as text, so it can be stored and shown exactly. */
export type Pricing = {
  basis: PriceBasis;
  unitName: string;
  /** Counted units: prints, copies, or m² with two decimals. */
  units: string;
  /** Price of one counted unit at this count. */
  unitPrice: string;
  copies: number;
  /** Extra pages per copy that are priced (copy basis only, else 0). */
  extraPages: number;
  extraPagePrice: string | null;
  amount: string;
  /** `100张 × ¥0.68`, `20本 × ¥12.00 + 加页 4页 × ¥0.30 × 20本`, `1.08㎡ × ¥45.00`. */
  text: string;
};

export const DEFAULT_UNIT_NAME: Record<PriceBasis, string> = { print: '张', copy: '份', area: '㎡' };

/**
 * Decimal text with at most two decimals → fen. Anything else is a bug of the caller (prices are numeric(12,2)).
 * A bigint: an amount (price × units of a huge file or count) may pass 2^53 fen, where a number is no longer exact.
 */
export function toFen(amount: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  const fraction = m?.[2] ?? '';
  if (!m || /[1-9]/.test(fraction.slice(2))) throw new Error(`not a price with at most two decimals: ${amount}`);
  return BigInt(m[1]!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}

/**
 * An amount of yuan a client sent as a JSON number (e.g. the 合计金额 it confirmed) → fen, or null when it is not
 * a whole number of fen. Read at 15 significant digits, so float noise of a client's sum (0.1 + 0.2) is still
 * 30 fen, while a third decimal (1.005) is refused rather than rounded either way.
 */
export function fenOfYuan(yuan: number): number | null {
  const fen = Number((yuan * 100).toPrecision(15));
  return Number.isSafeInteger(fen) && fen >= 0 ? fen : null;
}

/** Fen → `12.30`. */
export function fenText(fen: bigint | number): string {
  const n = BigInt(fen);
  const abs = n < 0n ? -n : n;
  return `${n < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Hundredths of a m² → `1.08`. */
const hundredthsText = fenText;

/**
 * The line of `kind` with the highest minimum not above `count` (counted in 1/`scale` units). A line from 1
 * is the price from the start, so it also prices an area under 1 m².
 */
function lineAt(lines: readonly PriceLineInput[], kind: PriceLineKind, count: bigint, scale = 1n): PriceLineInput | null {
  let best: PriceLineInput | null = null;
  for (const l of lines) {
    if (l.kind !== kind || (l.minQuantity > 1 && BigInt(l.minQuantity) * scale > count)) continue;
    if (!best || l.minQuantity > best.minQuantity) best = l;
  }
  return best;
}

/** Square metres × copies, in hundredths of a m², rounded up (a started hundredth is charged). */
export function areaHundredths(fileArea: number, copies: number): bigint {
  // fileArea comes from the check rounded to a millionth of a m²; work in those to stay exact.
  const micro = BigInt(Math.round(fileArea * 1e6)) * BigInt(copies);
  return (micro + 9999n) / 10000n;
}

/** The work's price and its basis, or null when a price it needs is missing (no unit line, or no extra-page line for extra pages). */
export function priceWork(product: PricingProduct, lines: readonly PriceLineInput[], work: PricingWork): Pricing | null {
  const copies = work.copies;
  if (!Number.isInteger(copies) || copies < 1) return null;
  const yuan = (fen: bigint) => `¥${fenText(fen)}`;

  if (product.basis === 'area') {
    // A page of 1e200 pt has no area to price (its check fails on its size).
    if (!Number.isFinite(work.fileArea) || work.fileArea < 0) return null;
    const hundredths = areaHundredths(work.fileArea, copies);
    const line = lineAt(lines, 'unit', hundredths, 100n);
    if (!line) return null;
    const unitFen = toFen(line.amount);
    // hundredths × fen / 100, half up to a fen.
    const amountFen = (hundredths * unitFen + 50n) / 100n;
    const units = hundredthsText(hundredths);
    return {
      basis: 'area', unitName: DEFAULT_UNIT_NAME.area, units, unitPrice: fenText(unitFen), copies, extraPages: 0, extraPagePrice: null,
      amount: fenText(amountFen), text: `${units}㎡ × ${yuan(unitFen)}`,
    };
  }

  const unitName = product.unitName?.trim() || DEFAULT_UNIT_NAME[product.basis];
  const count = product.basis === 'print' ? work.pageCount * copies : copies;
  const line = lineAt(lines, 'unit', BigInt(count));
  if (!line) return null;
  const unitFen = toFen(line.amount);
  let amountFen = BigInt(count) * unitFen;
  let text = `${count}${unitName} × ${yuan(unitFen)}`;
  let extraPages = 0;
  let extraPagePrice: string | null = null;
  if (product.basis === 'copy' && work.addPageNum > 0) {
    const extra = lineAt(lines, 'extraPage', BigInt(count));
    if (!extra) return null;
    const extraFen = toFen(extra.amount);
    extraPages = work.addPageNum;
    extraPagePrice = fenText(extraFen);
    amountFen += BigInt(extraPages) * extraFen * BigInt(copies);
    text += ` + 加页 ${extraPages}页 × ${yuan(extraFen)} × ${copies}${unitName}`;
  }
  return {
    basis: product.basis, unitName, units: String(count), unitPrice: fenText(unitFen), copies, extraPages, extraPagePrice,
    amount: fenText(amountFen), text,
  };
}

/** The basis shown for an order placed before prices had one: `数量 × 单价`. */
export function legacyBasisText(quantity: number, unitPrice: string): string {
  return `${quantity} × ¥${fenText(toFen(unitPrice))}`;
}
