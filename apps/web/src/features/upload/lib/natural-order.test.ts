import { describe, expect, it } from 'vitest';
import { groupByTopLevel, type PickedFile } from './pick.ts';
import { naturalCompare } from './natural-order.ts';

const picked = (relativePath: string): PickedFile => ({ relativePath, file: new File(['x'], relativePath.split('/').pop() as string) });

describe('natural order', () => {
  it('orders names as the server does: numbers by value, folders segment by segment', () => {
    const names = ['p10.jpg', 'DSC_0004.jpg', 'p2.jpg', 'DSC_0001.jpg', 'a10/x.jpg', 'DSC_0003.jpg', 'a2/x.jpg', 'P1.jpg'];
    expect([...names].sort(naturalCompare)).toEqual(['a2/x.jpg', 'a10/x.jpg', 'DSC_0001.jpg', 'DSC_0003.jpg', 'DSC_0004.jpg', 'P1.jpg', 'p2.jpg', 'p10.jpg']);
    // Chinese by pinyin: 封面 (feng) before 内页 (nei).
    expect(['内页', '封面'].sort(naturalCompare)).toEqual(['封面', '内页']);
  });

  it('groups a pick into items in natural order, whatever order the files came in', () => {
    const items = groupByTopLevel(['DSC_0004.jpg', 'Book10/p1.jpg', 'DSC_0001.jpg', 'Book2/p2.jpg', 'DSC_0003.jpg', 'Book2/p1.jpg'].map(picked));
    expect(items.map((i) => i.name)).toEqual(['Book2', 'Book10', 'DSC_0001.jpg', 'DSC_0003.jpg', 'DSC_0004.jpg']);
    // The files of an item stay as picked.
    expect(items[0]?.files.map((f) => f.relativePath)).toEqual(['Book2/p2.jpg', 'Book2/p1.jpg']);
  });
});
