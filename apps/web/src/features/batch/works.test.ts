import { beforeEach, describe, expect, it } from 'vitest';
import { createWorks, type WorkRow } from './works.ts';

const { addWorks, clearWorks, removeWorks, setProduct, updateWork, worksStore } = createWorks();

const row = (name: string): WorkRow => ({ uuid: `u-${name}`, articleName: name, filePath: `upload/b/${name}`, fileName: name, files: [], quantity: 1, state: 'unmatch' });
const names = () => worksStore.getState().rows.map((r) => r.articleName);

describe('the order of the rows', () => {
  beforeEach(() => clearWorks());

  it('keeps the pick order when the parses of its items finish in another order', () => {
    // Pick 0: DSC_0001, DSC_0003, DSC_0004 (items 0, 1, 2); DSC_0001 is big and parsed last.
    addWorks([row('DSC_0003')], [0, 1]);
    addWorks([row('DSC_0004')], [0, 2]);
    // Pick 1 finishes before pick 0's first item.
    addWorks([row('later-a'), row('later-b')], [1, 0]);
    addWorks([row('DSC_0001')], [0, 0]);
    expect(names()).toEqual(['DSC_0001', 'DSC_0003', 'DSC_0004', 'later-a', 'later-b']);
    removeWorks(['u-DSC_0003']);
    addWorks([row('DSC_0003')], [0, 1]);
    expect(names()).toEqual(['DSC_0001', 'DSC_0003', 'DSC_0004', 'later-a', 'later-b']);
  });

  it('puts rows without a place (a restored draft) first, and updates a known uuid where it stands', () => {
    addWorks([row('draft')]);
    addWorks([row('b')], [0, 1]);
    addWorks([row('a')], [0, 0]);
    addWorks([{ ...row('b'), quantity: 3 }], [0, 1]);
    expect(names()).toEqual(['draft', 'a', 'b']);
    expect(worksStore.getState().rows[2]?.quantity).toBe(3);
  });
});

describe('choosing a product', () => {
  beforeEach(() => clearWorks());
  const glossy = { productId: 1, productName: '5寸照片冲印', propertyConfigId: 11, sku: '相纸:光面', toning: 'None' as const, customToning: true };

  it('sets the SKU and its toning; the same SKU again keeps the toning the customer switched', () => {
    addWorks([row('a')]);
    setProduct('u-a', glossy);
    expect(worksStore.getState().rows[0]).toMatchObject({ productId: 1, propertyConfigId: 11, sku: '相纸:光面', toning: 'None', customToning: true });
    updateWork('u-a', { toning: 'Manual' });
    setProduct('u-a', glossy);
    expect(worksStore.getState().rows[0]?.toning).toBe('Manual');
    setProduct('u-a', { ...glossy, propertyConfigId: 12, sku: '相纸:绒面', toning: 'None', customToning: false });
    expect(worksStore.getState().rows[0]).toMatchObject({ propertyConfigId: 12, sku: '相纸:绒面', toning: 'None', customToning: false });
    // A work that left the table stays gone.
    setProduct('u-gone', glossy);
    expect(worksStore.getState().rows).toHaveLength(1);
  });
});
