import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../test/helpers/corpus.ts';
import { CORRUPT, imageIntegrity, TRUNCATED } from './integrity.ts';

const formatOf = (f: string) => (f.endsWith('.png') ? 'png' : 'jpeg');

describe('image integrity without decoding', () => {
  const good = ['images', 'orientation'].flatMap((d) => readdirSync(path.join(CORPUS, d)).map((f) => path.join(CORPUS, d, f)));
  it.each(good)('finds %s whole', async (f) => {
    expect(await imageIntegrity(f, formatOf(f))).toBeNull();
  });

  it.each([
    ['damaged/pillow_truncated_jpeg.jpg', TRUNCATED],
    ['damaged/pillow_truncated_image.png', TRUNCATED],
    ['damaged/pngsuite_xcsn0g01_bad_idat_crc.png', CORRUPT],
    ['damaged/pngsuite_xhdn0g08_bad_ihdr_crc.png', CORRUPT],
  ])('finds %s damaged', async (f, reason) => {
    expect(await imageIntegrity(path.join(CORPUS, f), formatOf(f))).toBe(reason);
  });
});
