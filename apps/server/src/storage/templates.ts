import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { notFound } from '../errors.ts';
import { resolveUnder } from './paths.ts';

/** The shop's template files (DATA_DIR/templates), read-only for customers. */
export function createTemplateStore(root: string) {
  return {
    async open(rel: string) {
      const abs = resolveUnder(root, rel);
      try {
        if (!(await stat(abs)).isFile()) throw new Error('not a file');
      } catch {
        throw notFound('模板文件不存在，请检查文件是否存在以及服务器配置');
      }
      return createReadStream(abs);
    },
  };
}
