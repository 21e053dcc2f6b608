/** `s` as a literal inside a LIKE pattern: its `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
