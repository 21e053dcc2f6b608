import { beforeEach, describe, expect, it } from 'vitest';
import { createWorks, type WorkRow } from './works.ts';

const { addWorks, clearWorks, removeWorks, worksStore } = createWorks();

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
