import { describe, expect, it } from 'vitest';
import { jsonArrayParts, jsonInSlices } from './json-in-slices.ts';

function* documentParts(works: readonly object[]) {
  yield '{"version":3,"document":{"format":1,"works":';
  yield* jsonArrayParts(works, (w) => JSON.stringify(w));
  yield ',"selectedKeys":["a"],"uploads":';
  yield* jsonArrayParts([], (w) => JSON.stringify(w));
  yield '}}';
}

describe('jsonInSlices', () => {
  it('builds the same JSON as JSON.stringify, in UTF-8, also across its encoding pieces', async () => {
    const works = Array.from({ length: 3000 }, (_, i) => ({ uuid: `w${i}`, articleName: `作品${i}「照片」`, files: [{ relativePath: `文件夹/${i}.jpg`, size: i }] }));
    const body = await jsonInSlices(documentParts(works));
    expect(body.type).toBe('application/json');
    const text = new TextDecoder().decode(await body.arrayBuffer());
    expect(JSON.parse(text)).toEqual({ version: 3, document: { format: 1, works, selectedKeys: ['a'], uploads: [] } });
    expect(body.size).toBe(new TextEncoder().encode(text).length);
    expect(text.length).toBeGreaterThan(256 * 1024);
  });

  it('yields between slices of work, and not when the work is short', async () => {
    let yields = 0;
    const yieldNow = async () => {
      yields++;
    };
    // Each part takes about 2 ms: slices of 5 ms yield every few parts.
    function* slow() {
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        while (performance.now() - t < 2);
        yield `${i},`;
      }
    }
    await jsonInSlices(slow(), { sliceMs: 5, yieldNow });
    expect(yields).toBeGreaterThanOrEqual(5);
    yields = 0;
    await jsonInSlices(['[', '1', ']'], { sliceMs: 5, yieldNow });
    expect(yields).toBe(0);
  });
});
