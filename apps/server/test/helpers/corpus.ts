import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus of real files with measured properties (../shared/corpus beside the repo). */
export const CORPUS = path.resolve(fileURLToPath(new URL('../../../..', import.meta.url)), '../shared/corpus');
export const corpusFile = (rel: string) => readFileSync(path.join(CORPUS, rel));

/** Real files this project keeps itself (apps/server/test/fixtures), each folder with its README and licences. */
export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));
export const fixtureFile = (rel: string) => readFileSync(path.join(FIXTURES, rel));
