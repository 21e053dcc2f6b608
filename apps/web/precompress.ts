/**
 * Brotli and gzip copies of the build, made once at build time: `x.js.br` and `x.js.gz` beside
 * `x.js`. The server sends them as they are (@fastify/static `preCompressed`) to a browser that
 * accepts the encoding, so a shop's line carries ≈ a third of the bytes and no request pays for
 * compressing. Brotli at its best quality costs seconds here, once, instead of on every request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm)$/;

export interface Precompressed {
  files: number;
  bytes: number;
  br: number;
  gz: number;
}

/**
 * Writes `.br` and `.gz` beside every text file below `dir`; a variant that would not be smaller than
 * the file is not written (the file is then sent as it is). Returns the sizes, for the build's log.
 */
export async function precompressDir(dir: string): Promise<Precompressed> {
  const names = (await readdir(dir, { recursive: true })).filter((name) => COMPRESSIBLE.test(name));
  const sizes = await Promise.all(names.map(async (name) => {
    const file = path.join(dir, name);
    if (!(await stat(file)).isFile()) return { bytes: 0, br: 0, gz: 0 };
    const data = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(data, { params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      } }),
      gz(data, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    const keep = async (variant: Buffer, ext: string) => {
      if (variant.length >= data.length) return data.length;
      await writeFile(`${file}${ext}`, variant);
      return variant.length;
    };
    return { bytes: data.length, br: await keep(br, '.br'), gz: await keep(gzipped, '.gz') };
  }));
  const sum: Precompressed = { files: 0, bytes: 0, br: 0, gz: 0 };
  for (const s of sizes) {
    if (s.bytes === 0) continue;
    sum.files += 1;
    sum.bytes += s.bytes;
    sum.br += s.br;
    sum.gz += s.gz;
  }
  return sum;
}

/** The vite plugin: precompresses the output folder once the build has written it. */
export function precompress(): Plugin {
  return {
    name: 'portal-precompress',
    apply: 'build',
    async writeBundle(options) {
      if (!options.dir) return;
      const sum = await precompressDir(options.dir);
      const kb = (n: number) => `${(n / 1000).toFixed(0)} kB`;
      this.info(`precompressed ${sum.files} files: ${kb(sum.bytes)} → ${kb(sum.br)} brotli, ${kb(sum.gz)} gzip`);
    },
  };
}
