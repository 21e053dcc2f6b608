/**
 * Features meet through a door (style.md 14, issue #18 item 4): code outside a feature (another feature,
 * app/) imports it only through its public entry, `features/<name>/index.ts`; a page the router loads
 * lazily comes through `features/<name>/lazy.ts`, by `import()` only, so it stays in its own chunk.
 * oxlint's no-restricted-imports matches the import's text, not the file it names, so it cannot tell
 * `../api/x.ts` of the same feature from another feature's internals; this test resolves every import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(d.name) ? [p] : [];
  });
}

/** features/<name>/… → name; anything else → null. */
function featureOf(rel: string): string | null {
  const parts = rel.split(path.sep);
  return parts[0] === 'features' && parts.length > 2 ? (parts[1] ?? null) : null;
}

/** Every relative import of a file: static (import/export … from) and dynamic (import()). */
function importsOf(text: string): Array<{ spec: string; dynamic: boolean }> {
  const found: Array<{ spec: string; dynamic: boolean }> = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/g)) found.push({ spec: m[1]!, dynamic: false });
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) found.push({ spec: m[1]!, dynamic: false });
  for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, dynamic: true });
  // vi.mock('…') names a module too.
  for (const m of text.matchAll(/\bvi\.mock\(\s*['"](\.[^'"]+)['"]/g)) found.push({ spec: m[1]!, dynamic: false });
  return found;
}

/** The imports that reach into another feature past its door. */
export function breaches(): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const from = path.relative(SRC, file);
    const own = featureOf(from);
    for (const { spec, dynamic } of importsOf(readFileSync(file, 'utf8'))) {
      const target = path.relative(SRC, path.resolve(path.dirname(file), spec));
      const feature = featureOf(target);
      if (!feature || feature === own) continue;
      const entry = target.split(path.sep).slice(2).join('/');
      if (entry === 'index.ts' || (entry === 'lazy.ts' && dynamic)) continue;
      out.push(`${from} imports ${spec}`);
    }
  }
  return out;
}

describe('features meet through their public entry', () => {
  it('no file imports another feature\'s internals', () => {
    expect(breaches()).toEqual([]);
  });

  it('sees a breach when there is one', () => {
    expect(importsOf("import { a } from '../../upload/store.ts';\nconst P = lazy(() => import('../x/lazy.ts'));")).toEqual([
      { spec: '../../upload/store.ts', dynamic: false },
      { spec: '../x/lazy.ts', dynamic: true },
    ]);
  });
});
