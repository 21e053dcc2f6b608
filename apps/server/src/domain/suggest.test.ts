import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckItem } from './check.ts';
import { suggestProducts, type SuggestProduct } from './suggest.ts';

/** The demo catalogue (db/seed/demo-catalogue.json) as the suggestion reads it: every SKU saleable but those marked not. */
type DemoSku = { number: string; skuNumber: string; options: string[]; default?: boolean; saleable?: boolean; minPageCount?: number; maxPageCount?: number; customToning?: boolean };
type DemoComponent = { name: string; width: number; height: number; error: number; errorType: 'mm' | 'percent'; autoOrientationDetection: boolean; resolutionThreshold: number; resolutionLimit: number | null; papers: Array<{ minPageCount?: number; maxPageCount?: number }> };
type DemoProduct = { number: string; name: string; pageCount: number; minNumberOfPages: number | null; maxNumberOfPages: number | null; components: DemoComponent[]; skus: DemoSku[] };
const demo = JSON.parse(readFileSync(new URL('../db/seed/demo-catalogue.json', import.meta.url), 'utf8')) as { products: DemoProduct[] };

let id = 0;
const catalogue: SuggestProduct[] = demo.products.map((p, pi) => ({
  id: pi + 1, number: p.number, name: p.name, pageCount: p.pageCount, minNumberOfPages: p.minNumberOfPages, maxNumberOfPages: p.maxNumberOfPages,
  components: p.components.map((c) => {
    const mins = c.papers.map((x) => x.minPageCount).filter((n): n is number => n != null);
    const maxs = c.papers.map((x) => x.maxPageCount).filter((n): n is number => n != null);
    return {
      id: ++id, uuid: `${p.number}/${c.name}`, name: c.name, width: c.width, height: c.height, error: c.error, errorType: c.errorType,
      autoOrientationDetection: c.autoOrientationDetection, resolutionThreshold: c.resolutionThreshold, resolutionLimit: c.resolutionLimit,
      pages: mins.length || maxs.length ? { min: mins.length ? Math.min(...mins) : null, max: maxs.length ? Math.max(...maxs) : null } : null,
    };
  }),
  skus: p.skus.filter((s) => s.saleable !== false).map((s) => ({
    id: ++id, number: s.number, sku: s.options.join(';'), skuNumber: s.skuNumber, jhiDefault: s.default === true,
    minPageCount: s.minPageCount ?? null, maxPageCount: s.maxPageCount ?? null, toning: 'None' as const, customToning: s.customToning === true, componentSizes: {},
  })),
}));
const skuNumberOf = (propertyConfigId: number) => catalogue.flatMap((p) => p.skus).find((s) => s.id === propertyConfigId)?.number;

const photo = (w: number, h: number, dpi = 300, dpiStated = true, name = 'a.jpg'): CheckItem =>
  ({ type: 'image', filePath: `upload/f/${name}`, fileName: name, folderComponent: null, widthPx: w, heightPx: h, dpi, dpiStated });
const pdf = (pages: number, w: number, h: number): CheckItem[] =>
  Array.from({ length: pages }, (_, i) => ({ type: 'pdf' as const, filePath: 'upload/f/a.pdf', fileName: 'a.pdf', folderComponent: null, page: i + 1, widthMm: w, heightMm: h }));
const mm = (v: number, dpi = 300) => Math.round((v / 25.4) * dpi);

describe('推荐产品 on the demo catalogue', () => {
  // work → [top product, its SKU, fit, files turned], or null when nothing fits as it is.
  const table: Array<[string, CheckItem[], [string, string, 'exact' | 'tolerance', number] | null]> = [
    ['1795×1205 px at 300 dpi is 6寸', [photo(1795, 1205)], ['6寸照片冲印', 'PH6-GL-NB', 'exact', 0]],
    ['the same photo upright is 6寸, turned', [photo(1205, 1795)], ['6寸照片冲印', 'PH6-GL-NB', 'exact', 1]],
    ['a folder of 6寸 photos is 6寸', [photo(1795, 1205, 300, true, 'a.jpg'), photo(1795, 1205, 300, true, 'b.jpg'), photo(1205, 1795, 300, true, 'c.jpg')], ['6寸照片冲印', 'PH6-GL-NB', 'exact', 1]],
    ['1500×1051 px at 300 dpi is 5寸', [photo(1500, 1051)], ['5寸照片冲印', 'PH5-GL-NB', 'exact', 0]],
    ['a 6寸 photo 1.5 mm short still fits, within the tolerance', [photo(mm(150.5), mm(102))], ['6寸照片冲印', 'PH6-GL-NB', 'tolerance', 0]],
    ['A3 at 150 dpi is the A3 poster', [photo(1754, 2480, 150)], ['A3海报', 'PO-A3-CP', 'exact', 0]],
    ['one card face is the one-sided card (the default SKU wants two pages)', [photo(mm(90), mm(54))], ['商务名片', 'BC-S-C300', 'exact', 0]],
    ['two card faces are the two-sided card', [photo(mm(90), mm(54), 300, true, 'f.jpg'), photo(mm(90), mm(54), 300, true, 'b.jpg')], ['商务名片', 'BC-D-C300', 'exact', 0]],
    ['a 2-page A4 PDF is the two-sided flyer', pdf(2, 210, 297), ['A4宣传单页', 'FL-C157-D', 'exact', 0]],
    ['a 24-page 210×285 PDF is the brochure (default SKU)', pdf(24, 210, 285), ['企业宣传画册', 'BR-SS-C157-MT', 'exact', 0]],
    ['a 60-page brochure only fits perfect binding', pdf(60, 210, 285), ['企业宣传画册', 'BR-PB-C157-GL', 'exact', 0]],
    ['1795×1205 px at 72 dpi (not stated) fits nothing', [photo(1795, 1205, 72, false)], null],
    ['a 6寸 photo 5 mm short fits nothing', [photo(mm(147), mm(102))], null],
    ['a 6寸 photo with a 5寸 photo in one work fits nothing', [photo(1795, 1205, 300, true, 'a.jpg'), photo(1500, 1051, 300, true, 'b.jpg')], null],
  ];
  it.each(table)('%s', (_name, items, expected) => {
    const out = suggestProducts(items, catalogue);
    if (!expected) {
      expect(out).toEqual([]);
      return;
    }
    const [product, sku, fit, swapped] = expected;
    expect(out[0]).toMatchObject({ productName: product, fit, swapped, resolutionWarnings: 0 });
    expect(skuNumberOf(out[0]!.propertyConfigId)).toBe(sku);
  });

  it('lists the other SKUs that fit behind the best, never a SKU that is not for sale', () => {
    const [six] = suggestProducts([photo(1795, 1205)], catalogue);
    expect(six!.otherPropertyConfigIds.map(skuNumberOf)).toEqual(['PH6-GL-WB', 'PH6-MT-NB', 'PH6-MT-WB']);
  });

  it('a photo below the threshold is still suggested, with its warning, after one that meets it', () => {
    const low = suggestProducts([photo(mm(152, 200), mm(102, 200), 200)], catalogue);
    expect(low[0]).toMatchObject({ productName: '6寸照片冲印', resolutionWarnings: 1 });
    // Two products of one size: the one whose threshold the photo meets comes first.
    const loose: SuggestProduct = { ...catalogue[1]!, id: 99, name: '6寸照片（普通）', components: catalogue[1]!.components.map((c) => ({ ...c, resolutionThreshold: 150 })) };
    const both = suggestProducts([photo(mm(152, 200), mm(102, 200), 200)], [...catalogue, loose]);
    expect(both.map((s) => s.productName)).toEqual(['6寸照片（普通）', '6寸照片冲印']);
  });

  it('an exact size comes before a size within the tolerance', () => {
    const wide: SuggestProduct = { ...catalogue[1]!, id: 98, name: '6寸宽幅', components: catalogue[1]!.components.map((c) => ({ ...c, width: 153.5 })) };
    expect(suggestProducts([photo(1795, 1205)], [wide, ...catalogue]).map((s) => s.productName)).toEqual(['6寸照片冲印', '6寸宽幅']);
  });
});
