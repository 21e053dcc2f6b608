import { describe, expect, it } from 'vitest';
import { cleanRelativePath, resolveUnder } from './paths.ts';

describe('relative paths from clients', () => {
  it.each(['../x', 'a/../../b', '/etc/passwd', 'a\\b', 'C:/x', 'a\0b', '', 'a//b', './a', 'a/.', 'a\uD800.jpg', '\uDC00b.jpg'])('refuses %j', (p) => {
    expect(() => cleanRelativePath(p)).toThrow('文件路径不合法');
  });
  it('keeps a good path and resolves it under the root', () => {
    expect(cleanRelativePath('upload/f1/Book 1/p01.jpg')).toBe('upload/f1/Book 1/p01.jpg');
    expect(resolveUnder('/data/hubs/1', 'upload/x.jpg')).toBe('/data/hubs/1/upload/x.jpg');
    expect(resolveUnder('/data/hubs/1', '%2e%2e/x')).toBe('/data/hubs/1/%2e%2e/x');
  });
});
