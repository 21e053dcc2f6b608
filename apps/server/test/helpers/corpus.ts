import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus of real files with measured properties (../shared/corpus beside the repo). */
export const CORPUS = path.resolve(fileURLToPath(new URL('../../../..', import.meta.url)), '../shared/corpus');
export const corpusFile = (rel: string) => readFileSync(path.join(CORPUS, rel));
