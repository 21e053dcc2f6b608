/**
 * Layers kept (issue #18 items 2 and 6): a service reaches files through storage/ and pictures through media/,
 * never the file system or sharp itself, and knows nothing of HTTP (routes read requests, the error handler maps
 * AppErrors). oxlint's no-restricted-imports cannot be set per folder here, so this test reads the imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVICES = import.meta.dirname;
const FORBIDDEN = [/^(node:)?fs(\/promises)?$/, /^sharp$/, /^fastify$/, /^@fastify\//];

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => (m[1] ?? m[2])!);
}

describe('services', () => {
  it('import neither the file system, sharp nor fastify', () => {
    const files = readdirSync(SERVICES).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((f) => importsOf(readFileSync(path.join(SERVICES, f), 'utf8')).filter((spec) => FORBIDDEN.some((re) => re.test(spec))).map((spec) => `${f}: ${spec}`));
    expect(found).toEqual([]);
  });
});
