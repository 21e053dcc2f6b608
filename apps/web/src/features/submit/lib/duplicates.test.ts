import { describe, expect, it } from 'vitest';
import { duplicateRowsOf } from './duplicates.ts';

describe('the duplicate dialog\'s rows', () => {
  const works = [
    { uuid: 'a', articleName: '海边', fileName: '海边.jpg' },
    { uuid: 'b', articleName: '改名', fileName: 'renamed.jpg' },
    { uuid: 'c', articleName: '新的', fileName: 'fresh.jpg' },
  ];
  it('lists a work whose content is already ordered under another name, with the order number', () => {
    const rows = duplicateRowsOf(works, [
      { fileName: '海边.jpg', duplicated: false, salesOrderNumber: 'SO1' },
      { fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: null },
      { fileName: 'fresh.jpg', duplicated: false, salesOrderNumber: null },
      { fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: 'SO1', workUuid: 'b', sameContent: true },
    ]);
    expect(rows).toEqual([
      { uuid: 'a', position: 1, articleName: '海边', fileName: '海边.jpg', duplicated: false, salesOrderNumber: 'SO1' },
      { uuid: 'b', position: 2, articleName: '改名', fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: 'SO1', sameContent: true },
    ]);
  });
  it('a content row does not mark another work of the same name', () => {
    const twin = [...works, { uuid: 'd', articleName: '同名', fileName: 'renamed.jpg' }];
    const rows = duplicateRowsOf(twin, [{ fileName: 'renamed.jpg', duplicated: false, salesOrderNumber: 'SO2', workUuid: 'b', sameContent: true }]);
    expect(rows.map((r) => r.uuid)).toEqual(['b']);
  });
  it('a name already ordered keeps the spec\'s 已下单 row when its content is in that order too', () => {
    const rows = duplicateRowsOf(works, [
      { fileName: '海边.jpg', duplicated: false, salesOrderNumber: 'SO1' },
      { fileName: '海边.jpg', duplicated: false, salesOrderNumber: 'SO1', workUuid: 'a', sameContent: true },
    ]);
    expect(rows).toEqual([{ uuid: 'a', position: 1, articleName: '海边', fileName: '海边.jpg', duplicated: false, salesOrderNumber: 'SO1' }]);
  });
});
