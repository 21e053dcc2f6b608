import { describe, expect, it } from 'vitest';
import type { FileCheckRow } from '@portal/contract/api';
import { FILE_DELETED_RECHECK, freshUrl, withoutFile } from './detail.ts';

describe('freshUrl', () => {
  // A crop after a re-upload marked the preview twice (…&t=1&t=2): the server answered 400 and the console showed it.
  it.each([
    ['/api/files/preview/1/a.jpg', '/api/files/preview/1/a.jpg?t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&sig=x', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&sig=x&t=3', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/a.jpg?t=3&exp=9', '/api/files/preview/1/a.jpg?exp=9&t=5'],
    ['/api/files/preview/1/a.jpg?t=3', '/api/files/preview/1/a.jpg?t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&t=3&t=4&sig=x', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/sat=1.jpg?page=2', '/api/files/preview/1/sat=1.jpg?page=2&t=5'],
  ])('%s → %s', (url, fresh) => {
    expect(freshUrl(url, 5)).toBe(fresh);
    expect(freshUrl(freshUrl(url, 4), 5)).toBe(fresh);
  });
});

describe('withoutFile', () => {
  const row = (itemPath: string): FileCheckRow => ({
    filename: itemPath.slice(itemPath.lastIndexOf('/') + 1), itemPath, type: 'image', page: null, width: 285, height: 210, component: null, resolutionDetect: 300, dpiStated: true,
    resolutionThreshold: 300, resolutionLimit: 1200, resolutionWarning: false, effectiveDpi: 300, pass: false, reason: '尺寸不符', previewUrl: '', previewRelativeUrl: '',
  });
  // A folder work of 封面/p1.jpg and 内页/p1.jpg (labels with their folder) and q.jpg.
  const model = {
    kind: 'rows' as const, workUuid: 'w', fileName: '画册', status: 'error' as const, pageCountWarning: true,
    rows: [row('upload/f/画册/封面/p1.jpg'), row('upload/f/画册/内页/p1.jpg'), row('upload/f/画册/q.jpg')],
    messages: ['页数3不符合要求（2-2页）', '封面/p1.jpg：尺寸不符：实际285×210mm', '内页/p1.jpg：尺寸不符：实际285×210mm', 'q.jpg：尺寸不符：实际285×210mm'],
  };
  it('drops the deleted file\'s row and red lines and the work\'s page count, keeps the others under a line asking for a check', () => {
    const after = withoutFile(model, 'upload/f/画册/封面/p1.jpg');
    expect(after.rows.map((r) => r.itemPath)).toEqual(['upload/f/画册/内页/p1.jpg', 'upload/f/画册/q.jpg']);
    expect(after.messages).toEqual([FILE_DELETED_RECHECK, '内页/p1.jpg：尺寸不符：实际285×210mm', 'q.jpg：尺寸不符：实际285×210mm']);
    expect(after.pageCountWarning).toBe(false);
  });
});
