import { describe, expect, it } from 'vitest';
import { freshUrl } from './detail.ts';

describe('freshUrl', () => {
  // A crop after a re-upload marked the preview twice (…&t=1&t=2): the server answered 400 and the console showed it.
  it.each([
    ['/api/files/preview/1/a.jpg', '/api/files/preview/1/a.jpg?t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&sig=x', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&sig=x&t=3', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/a.jpg?t=3&exp=9', '/api/files/preview/1/a.jpg?exp=9&t=5'],
    ['/api/files/preview/1/a.jpg?t=3', '/api/files/preview/1/a.jpg?t=5'],
    ['/api/files/preview/1/a.jpg?exp=9&t=3&t=4&sig=x', '/api/files/preview/1/a.jpg?exp=9&sig=x&t=5'],
    ['/api/files/preview/1/sat=1.jpg?page=2', '/api/files/preview/1/sat=1.jpg?page=2&t=5'],
  ])('%s → %s', (url, fresh) => {
    expect(freshUrl(url, 5)).toBe(fresh);
    expect(freshUrl(freshUrl(url, 4), 5)).toBe(fresh);
  });
});
