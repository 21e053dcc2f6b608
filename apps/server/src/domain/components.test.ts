import { describe, expect, it } from 'vitest';
import { inComponentOrder } from './components.ts';

describe('files and components in the catalogue\'s order', () => {
  it.each([
    ['a card picked 背面 first', [['背面', 'b.pdf'], ['正面', 'a.pdf']], ['正面', '背面'], ['a.pdf', 'b.pdf']],
    ['stable within a component', [['内页', '2.jpg'], ['封面', 'c.jpg'], ['内页', '1.jpg']], ['封面', '内页'], ['c.jpg', '2.jpg', '1.jpg']],
    ['a component the catalogue no longer lists, and none, last', [[null, 'x.jpg'], ['旧部件', 'y.jpg'], ['画面', 'z.jpg']], ['画面'], ['z.jpg', 'x.jpg', 'y.jpg']],
  ] as Array<[string, Array<[string | null, string]>, string[], string[]]>)('%s', (_what, files, names, expected) => {
    expect(inComponentOrder(files, (f) => f[0], names).map((f) => f[1])).toEqual(expected);
  });
});
